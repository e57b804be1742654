//===- VerifyWgmma.cpp - wgmma groups against the registers they read -----===//
//
// cake.wgmma.regs reads its A fragment from registers asynchronously: until a wgmma.wait retires
// the group, the registers must not change. In a loop, the op that defines the fragment runs again
// in the next iteration; unless a `cake.wgmma.wait 0` that every thread of the loop body reaches
// lies between the wgmma and that next definition, the group of the previous iteration may still
// read the registers being rewritten (found on the GPU: wrong results, no fault).
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/Findings.h"
#include "Cake/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYWGMMAPASS
#include "Cake/Transforms/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
/// The innermost scf.for / scf.while around `op` that also contains `def`, or null.
Operation *getCommonLoop(Operation *op, Operation *def) {
  for (Operation *p = op->getParentOp(); p && !isa<KernelOp>(p); p = p->getParentOp())
    if (isa<scf::ForOp, scf::WhileOp>(p) && p->isProperAncestor(def))
      return p;
  return nullptr;
}

/// True when every execution of `loop`'s body reaches `op` (no condition or inner loop between).
bool isUnconditionalIn(Operation *op, Operation *loop) {
  for (Operation *p = op->getParentOp(); p && p != loop; p = p->getParentOp())
    if (isa<scf::IfOp, scf::IndexSwitchOp, scf::ForOp, scf::WhileOp, scf::ParallelOp>(p))
      return false;
  return true;
}

struct Finding {
  Operation *loop = nullptr;
  Operation *def = nullptr;
  SmallVector<WgmmaRegsOp> readers;
  WgmmaWaitOp lastWait; // the last wait with pending > 0 on the path, if any
};

struct CakeVerifyWgmmaPass : cake::impl::CakeVerifyWgmmaPassBase<CakeVerifyWgmmaPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation()->walk([&](KernelOp kernel) {
      // One finding per (place reported): a wait that leaves groups in flight, else the definition.
      llvm::MapVector<Operation *, Finding> findings;
      DenseMap<Operation *, std::pair<SmallVector<Operation *>, DenseMap<Operation *, size_t>>>
          orders;
      kernel.walk([&](WgmmaRegsOp regs) {
        Operation *def = regs.getA().getDefiningOp();
        if (!def)
          return; // an iteration argument: double-buffered, or defined once
        Operation *loop = getCommonLoop(regs, def);
        if (!loop)
          return;
        auto &entry = orders[loop];
        SmallVector<Operation *> &ops = entry.first;
        DenseMap<Operation *, size_t> &index = entry.second;
        if (ops.empty())
          loop->walk<WalkOrder::PreOrder>([&](Operation *op) {
            if (op == loop)
              return;
            index[op] = ops.size();
            ops.push_back(op);
          });
        size_t from = index.lookup(regs), to = index.lookup(def);
        // From the wgmma to the end of the body, then around to the definition.
        WgmmaWaitOp lastWait;
        bool retired = false;
        // A wait retires the group when every path from the wgmma to the redefinition reaches
        // it: unconditional in the loop body, or in a block that also holds the wgmma (after it)
        // or the definition (before it).
        auto reaches = [&](Operation *wait, Operation *anchor, bool after) {
          Operation *ancestor = wait->getBlock()->findAncestorOpInBlock(*anchor);
          return ancestor && (after ? ancestor->isBeforeInBlock(wait)
                                    : wait->isBeforeInBlock(ancestor));
        };
        auto visit = [&](Operation *op) {
          auto wait = dyn_cast<WgmmaWaitOp>(op);
          if (!wait)
            return;
          if (!isUnconditionalIn(op, loop) && !reaches(op, regs, /*after=*/true) &&
              !reaches(op, def, /*after=*/false))
            return;
          if (wait.getPending() == 0)
            retired = true;
          else
            lastWait = wait;
        };
        for (size_t i = from + 1; i < ops.size() && !retired; ++i)
          visit(ops[i]);
        for (size_t i = 0; i < to && !retired; ++i)
          visit(ops[i]);
        if (retired)
          return;
        Operation *at = lastWait ? lastWait.getOperation() : def;
        Finding &f = findings[at];
        if (f.readers.empty()) {
          f.loop = loop;
          f.def = def;
          f.lastWait = lastWait;
        }
        f.readers.push_back(regs);
      });
      for (auto &[at, f] : findings) {
        ok = false;
        InFlightDiagnostic diag = emitFinding(at, "wgmma.a-registers-in-flight");
        if (f.lastWait)
          diag << "expected pending 0: this wait leaves " << f.lastWait.getPending()
               << " wgmma group(s) in flight, and the next iteration rewrites the A registers "
                  "they read";
        else
          diag << "expected a cake.wgmma.wait 0 before the next iteration rewrites the A "
                  "registers this value holds: the wgmma group reading them may still be in flight";
        diag.attachNote(f.readers.front().getLoc())
            << "cake.wgmma.regs reads the A fragment from registers here";
        if (f.lastWait)
          diag.attachNote(f.def->getLoc()) << "the next iteration redefines the fragment here";
        diag.attachNote(f.loop->getLoc()) << "in this loop";
        attachFix(diag, at, "wgmma.a-registers-in-flight",
                  f.lastWait ? "wait with pending 0 before rewriting A, or double-buffer the A "
                               "fragments (load the next one into an iteration argument)"
                             : "add cake.wgmma.wait 0 after the cake.wgmma.commit, before the "
                               "fragment is redefined, or double-buffer the A fragments");
      }
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
