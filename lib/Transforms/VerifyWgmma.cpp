//===- VerifyWgmma.cpp - wgmma groups against the registers they read -----===//
//
// cake.wgmma.regs reads its A fragment from registers asynchronously: until a wgmma.wait retires
// the group, the registers must not change. Likewise a wgmma writes its accumulator registers
// asynchronously: any other read of them (an epilogue store, a reduction, arithmetic) must come
// after a wgmma.wait that retires the group (wgmma.accumulator-in-flight). In a loop, the op that defines the fragment runs again
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
#include "llvm/ADT/SmallPtrSet.h"

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

/// True when `v` holds a wgmma accumulator: a cake.wgmma / cake.wgmma.regs result, or an scf.for
/// result or iteration argument that carries one around the loop.
bool isAccumulator(Value v, int depth = 0) {
  if (depth > 8)
    return false;
  if (Operation *def = v.getDefiningOp()) {
    if (isa<WgmmaOp, WgmmaRegsOp>(def))
      return true;
    if (auto loop = dyn_cast<scf::ForOp>(def))
      return isAccumulator(loop.getBody()->getTerminator()->getOperand(
                               cast<OpResult>(v).getResultNumber()),
                           depth + 1);
    return false;
  }
  auto arg = cast<BlockArgument>(v);
  auto loop = dyn_cast_or_null<scf::ForOp>(arg.getOwner()->getParentOp());
  if (!loop || arg.getArgNumber() == 0)
    return false;
  return isAccumulator(loop.getBody()->getTerminator()->getOperand(arg.getArgNumber() - 1),
                       depth + 1);
}

/// Uses that do not read the accumulator registers themselves: the next wgmma of the chain, a
/// yield or a loop's initial value (the loop's own values are checked where they are read).
bool isChainUse(OpOperand &use) {
  Operation *owner = use.getOwner();
  if (auto w = dyn_cast<WgmmaOp>(owner))
    return use.get() == w.getAcc();
  if (auto w = dyn_cast<WgmmaRegsOp>(owner))
    return use.get() == w.getAcc();
  return isa<scf::YieldOp, scf::ForOp>(owner);
}

enum class GroupState { Retired, InFlight, Unknown };

/// Whether an accumulator's group is retired at a read: the most recent cake.wgmma.wait before
/// the read in program order, against the commits between the accumulator's wgmma and that wait
/// (a wait N leaves the newest N committed groups in flight, and a wgmma that no commit closed
/// belongs to no group a wait could retire).
class AccumulatorState {
public:
  explicit AccumulatorState(KernelOp kernel) {
    kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
      order[op] = commitsBefore.size();
      commitsBefore.push_back(commits);
      commits += isa<WgmmaCommitOp>(op);
    });
  }

  /// The state at `reader` of the accumulator `acc`; `lastWait` is the wait that decided.
  GroupState at(Operation *reader, Value acc, WgmmaWaitOp &lastWait) {
    Operation *def = acc.getDefiningOp();
    auto arg = dyn_cast<BlockArgument>(acc);
    bool unknown = false;
    for (Operation *cur = reader; cur && !isa<KernelOp>(cur); cur = cur->getParentOp()) {
      Block *block = cur->getBlock();
      if (!block)
        return GroupState::Unknown;
      Operation *origin = def ? block->findAncestorOpInBlock(*def) : nullptr;
      for (Operation *p = cur->getPrevNode(); p; p = p->getPrevNode()) {
        if (auto wait = dyn_cast<WgmmaWaitOp>(p)) {
          lastWait = wait;
          return worst(afterWait(wait, def), unknown);
        }
        if (p == origin) {
          if (auto loop = dyn_cast<scf::ForOp>(p)) // a loop result: its body's tail decides
            return worst(atLoopEnd(loop, cast<OpResult>(acc).getResultNumber(), lastWait),
                         unknown);
          return isa<WgmmaOp, WgmmaRegsOp>(p) ? GroupState::InFlight : GroupState::Unknown;
        }
        if (!waitsInside(p))
          continue;
        // An scf.if: each branch's last wait, or (a branch without one) the state before the
        // if. Any other region that waits (a loop, which may run no iteration): no verdict.
        auto ifOp = dyn_cast<scf::IfOp>(p);
        if (!ifOp)
          return GroupState::Unknown;
        bool fallsThrough = ifOp.getElseRegion().empty();
        for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
          if (region->empty())
            continue;
          WgmmaWaitOp wait;
          GroupState s = lastWaitIn(region->front(), def, wait);
          if (wait)
            lastWait = wait;
          if (s == GroupState::InFlight)
            return GroupState::InFlight;
          unknown |= s == GroupState::Unknown && wait;
          fallsThrough |= !wait && s != GroupState::Unknown;
          if (!wait && s == GroupState::Unknown)
            return GroupState::Unknown;
        }
        if (!fallsThrough)
          return unknown ? GroupState::Unknown : GroupState::Retired;
      }
      // The start of a loop body that carries the accumulator: the previous iteration's tail.
      if (arg && arg.getOwner() == block)
        if (auto loop = dyn_cast<scf::ForOp>(block->getParentOp()))
          return worst(atLoopEnd(loop, arg.getArgNumber() - 1, lastWait), unknown);
    }
    return GroupState::Unknown;
  }

private:
  static GroupState worst(GroupState s, bool unknown) {
    return s == GroupState::Retired && unknown ? GroupState::Unknown : s;
  }

  static bool waitsInside(Operation *op) {
    bool waits = false;
    op->walk([&](WgmmaWaitOp) { waits = true; });
    return waits;
  }

  /// Commits between `def` and `wait` in program order (a commit in a branch counts: no false
  /// alarm for a commit the analysis cannot place on the path).
  GroupState afterWait(WgmmaWaitOp wait, Operation *def) {
    if (!def || !order.count(def) || !order.count(wait))
      return wait.getPending() == 0 ? GroupState::Retired : GroupState::Unknown;
    unsigned from = order[def], to = order[wait];
    if (to < from)
      return wait.getPending() == 0 ? GroupState::Retired : GroupState::Unknown;
    uint64_t between = commitsBefore[to] - commitsBefore[from];
    return between >= wait.getPending() + 1 ? GroupState::Retired : GroupState::InFlight;
  }

  /// The last wait of `block` (not nested), scanning back from its end; InFlight when the
  /// accumulator's wgmma is met first, Unknown at a nested region that waits.
  GroupState lastWaitIn(Block &block, Operation *def, WgmmaWaitOp &found) {
    Operation *origin = def ? block.findAncestorOpInBlock(*def) : nullptr;
    for (Operation *p = block.empty() ? nullptr : &block.back(); p; p = p->getPrevNode()) {
      if (auto wait = dyn_cast<WgmmaWaitOp>(p)) {
        found = wait;
        return afterWait(wait, def);
      }
      if (p == origin)
        return isa<WgmmaOp, WgmmaRegsOp>(p) ? GroupState::InFlight : GroupState::Unknown;
      if (waitsInside(p))
        return GroupState::Unknown;
    }
    return GroupState::Retired; // no wait in the block: the caller continues before it
  }

  /// The state, at the end of `loop`'s body, of the group producing the value yielded as
  /// `result`: the body's last wait decides; with none, the group is in flight.
  GroupState atLoopEnd(scf::ForOp loop, unsigned result, WgmmaWaitOp &lastWait) {
    Block *body = loop.getBody();
    Value yielded = body->getTerminator()->getOperand(result);
    Operation *def = yielded.getDefiningOp();
    Operation *producer = def ? body->findAncestorOpInBlock(*def) : nullptr;
    WgmmaWaitOp wait;
    GroupState s = lastWaitIn(*body, def, wait);
    if (wait) {
      lastWait = wait;
      return s;
    }
    if (s != GroupState::Retired) // met the wgmma (in flight) or a nested wait (unknown)
      return s;
    if (auto inner = dyn_cast_or_null<scf::ForOp>(producer)) // yielded from an inner loop
      if (def == inner)
        return atLoopEnd(inner, cast<OpResult>(yielded).getResultNumber(), lastWait);
    return producer && isa<WgmmaOp, WgmmaRegsOp>(producer) ? GroupState::InFlight
                                                           : GroupState::Unknown;
  }

  DenseMap<Operation *, unsigned> order;
  SmallVector<uint64_t> commitsBefore;
  uint64_t commits = 0;
};

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
    getOperation()->walk([&](KernelOp kernel) {
      // wgmma.accumulator-in-flight: every read of accumulator registers, once per reader.
      llvm::SmallPtrSet<Operation *, 8> reported;
      AccumulatorState state(kernel);
      auto check = [&](Value acc) {
        if (!isa<VectorType>(acc.getType()) || !isAccumulator(acc))
          return;
        for (OpOperand &use : acc.getUses()) {
          Operation *reader = use.getOwner();
          if (isChainUse(use) || reported.contains(reader))
            continue;
          WgmmaWaitOp lastWait;
          if (state.at(reader, acc, lastWait) != GroupState::InFlight)
            continue;
          reported.insert(reader);
          ok = false;
          InFlightDiagnostic diag = emitFinding(reader, "wgmma.accumulator-in-flight");
          diag << "reads wgmma accumulator registers while the group writing them may be in "
                  "flight: expected a cake.wgmma.wait that retires it before this read";
          if (lastWait)
            diag.attachNote(lastWait.getLoc())
                << "the last wait before the read leaves " << lastWait.getPending()
                << " group(s) in flight, the accumulator's among them";
          if (Operation *def = acc.getDefiningOp())
            diag.attachNote(def->getLoc()) << "the accumulator comes from here";
          attachFix(diag, reader, "wgmma.accumulator-in-flight",
                    "add cake.wgmma.wait 0 before this read (after the loop, when the loop's "
                    "wait keeps the last group in flight)");
        }
      };
      kernel.walk([&](Operation *op) {
        for (Value r : op->getResults())
          check(r);
        for (Region &region : op->getRegions())
          for (Block &block : region)
            for (BlockArgument a : block.getArguments())
              check(a);
      });
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
