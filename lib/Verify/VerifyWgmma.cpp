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
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYWGMMAPASS
#include "Cake/Verify/Passes.h.inc"
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

/// The wgmma that last wrote an accumulator value, through scf.for results and scf.if results
/// (the first arm that yields one), or null. With `throughArgs`, a loop's iteration argument
/// leads to the value the body yields for it (whether a value is an accumulator at all);
/// without, an iteration argument has no producer (the group-state checks judge it at the
/// previous iteration's end instead).
Operation *producerOf(Value v, bool throughArgs = false, int depth = 0) {
  if (depth > 8)
    return nullptr;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast_or_null<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!throughArgs || !loop || arg.getArgNumber() == 0)
      return nullptr;
    return producerOf(loop.getBody()->getTerminator()->getOperand(arg.getArgNumber() - 1),
                      throughArgs, depth + 1);
  }
  Operation *def = v.getDefiningOp();
  if (isa<WgmmaOp, WgmmaRegsOp>(def))
    return def;
  unsigned i = cast<OpResult>(v).getResultNumber();
  if (auto loop = dyn_cast<scf::ForOp>(def))
    return producerOf(loop.getBody()->getTerminator()->getOperand(i), throughArgs, depth + 1);
  if (auto ifOp = dyn_cast<scf::IfOp>(def))
    for (Region &r : ifOp->getRegions())
      if (!r.empty())
        if (Operation *p =
                producerOf(r.front().getTerminator()->getOperand(i), throughArgs, depth + 1))
          return p;
  return nullptr;
}

/// True when `v` holds a wgmma accumulator.
bool isAccumulator(Value v) { return producerOf(v, /*throughArgs=*/true) != nullptr; }

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

/// The worse of two paths' states: in flight on one path is in flight.
GroupState worse(GroupState a, GroupState b) {
  if (a == GroupState::InFlight || b == GroupState::InFlight)
    return GroupState::InFlight;
  return a == GroupState::Unknown || b == GroupState::Unknown ? GroupState::Unknown
                                                              : GroupState::Retired;
}

/// Whether an accumulator's group is retired at a read: the most recent cake.wgmma.wait on each
/// path before the read, against the commits between the accumulator's wgmma and that wait (a
/// wait N leaves the newest N committed groups in flight, and a wgmma that no commit closed
/// belongs to no group a wait could retire). Paths: both arms of an scf.if, and an scf.for that
/// may run no iteration is also skipped.
class AccumulatorState {
public:
  explicit AccumulatorState(KernelOp kernel) {
    kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
      order[op] = ops.size();
      ops.push_back(op);
    });
  }

  /// The state at `reader` of the accumulator `acc`; `lastWait` is a wait that decided.
  GroupState at(Operation *reader, Value acc, WgmmaWaitOp &lastWait) {
    return before(reader, acc, lastWait);
  }

private:
  /// The state just before `op` runs.
  GroupState before(Operation *op, Value acc, WgmmaWaitOp &lastWait, int depth = 0) {
    if (depth > 16)
      return GroupState::Unknown;
    Operation *def = acc.getDefiningOp();
    auto arg = dyn_cast<BlockArgument>(acc);
    for (Operation *cur = op; cur && !isa<KernelOp>(cur); cur = cur->getParentOp()) {
      Block *block = cur->getBlock();
      if (!block)
        return GroupState::Unknown;
      Operation *origin = def ? block->findAncestorOpInBlock(*def) : nullptr;
      for (Operation *p = cur->getPrevNode(); p; p = p->getPrevNode()) {
        if (auto wait = dyn_cast<WgmmaWaitOp>(p)) {
          lastWait = wait;
          return afterWait(wait, acc);
        }
        if (p == origin)
          return afterDefinition(acc, lastWait, depth);
        if (!waitsInside(p))
          continue;
        // A region that waits: the state at its end on each path; a path with no wait in it
        // (an arm without one, a loop that may run no iteration) continues before it.
        GroupState inside = GroupState::Retired;
        bool passes = false;
        if (auto ifOp = dyn_cast<scf::IfOp>(p)) {
          passes = ifOp.getElseRegion().empty();
          for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
            if (!region->empty()) {
              std::optional<GroupState> s = lastWaitIn(region->front(), acc, lastWait);
              if (s)
                inside = worse(inside, *s);
              else
                passes = true;
            }
        } else if (auto loop = dyn_cast<scf::ForOp>(p)) {
          std::optional<GroupState> s = lastWaitIn(*loop.getBody(), acc, lastWait);
          if (!s)
            return GroupState::Unknown; // waits only in nested regions of the body
          inside = *s;
          passes = !runsAtLeastOnce(loop);
        } else {
          return GroupState::Unknown;
        }
        if (inside == GroupState::InFlight || !passes)
          return inside;
        return worse(inside, before(p, acc, lastWait, depth + 1));
      }
      // The start of a loop body that carries the accumulator: the previous iteration's tail.
      if (arg && arg.getOwner() == block)
        if (auto loop = dyn_cast<scf::ForOp>(block->getParentOp()))
          return atEnd(*loop.getBody(), loop.getBody()->getTerminator()->getOperand(
                                            arg.getArgNumber() - 1),
                       lastWait, depth + 1);
    }
    return GroupState::Unknown;
  }

  /// The state right after the op defining `acc` (a wgmma: not yet committed; a loop or an if:
  /// at the end of its body or of each arm).
  GroupState afterDefinition(Value acc, WgmmaWaitOp &lastWait, int depth) {
    Operation *def = acc.getDefiningOp();
    if (isa<WgmmaOp, WgmmaRegsOp>(def))
      return GroupState::InFlight;
    unsigned i = cast<OpResult>(acc).getResultNumber();
    if (auto loop = dyn_cast<scf::ForOp>(def)) {
      GroupState s = atEnd(*loop.getBody(), loop.getBody()->getTerminator()->getOperand(i),
                           lastWait, depth + 1);
      // A loop that may run no iteration hands its initial value through.
      Value init = loop.getInitArgs()[i];
      if (!runsAtLeastOnce(loop) && isAccumulator(init))
        s = worse(s, before(loop, init, lastWait, depth + 1));
      return s;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
      GroupState s = GroupState::Retired;
      for (Region &r : ifOp->getRegions())
        if (!r.empty())
          s = worse(s, atEnd(r.front(), r.front().getTerminator()->getOperand(i), lastWait,
                             depth + 1));
      return s;
    }
    return GroupState::Unknown;
  }

  /// The state of `acc`'s group at the end of `block` (before its terminator).
  GroupState atEnd(Block &block, Value acc, WgmmaWaitOp &lastWait, int depth) {
    if (!isAccumulator(acc))
      return GroupState::Retired; // this path yields something else (zeros, a copy)
    if (depth > 16)
      return GroupState::Unknown;
    return before(block.getTerminator(), acc, lastWait, depth);
  }

  /// The last wait directly in `block` (scanning back from its end): the state after it, or
  /// nothing when the block has none; Unknown at a nested region that waits, and InFlight when
  /// the accumulator's own wgmma comes first.
  std::optional<GroupState> lastWaitIn(Block &block, Value acc, WgmmaWaitOp &found) {
    Operation *producer = producerOf(acc);
    Operation *origin = producer ? block.findAncestorOpInBlock(*producer) : nullptr;
    for (Operation *p = block.empty() ? nullptr : &block.back(); p; p = p->getPrevNode()) {
      if (auto wait = dyn_cast<WgmmaWaitOp>(p)) {
        found = wait;
        return afterWait(wait, acc);
      }
      if (p == origin && p == producer)
        return GroupState::InFlight;
      if (waitsInside(p))
        return GroupState::Unknown;
    }
    return std::nullopt;
  }

  static bool waitsInside(Operation *op) {
    bool waits = false;
    op->walk([&](WgmmaWaitOp) { waits = true; });
    return waits;
  }

  static bool runsAtLeastOnce(scf::ForOp loop) {
    auto lb = getConstantIntValue(loop.getLowerBound());
    auto ub = getConstantIntValue(loop.getUpperBound());
    return lb && ub && *ub > *lb;
  }

  /// A wait N retires the accumulator's group when at least N + 1 commits on the path lie
  /// between its wgmma and the wait: commits in the blocks that hold (or enclose) the wgmma or
  /// the wait, not those in a branch or loop beside them, which may not run.
  GroupState afterWait(WgmmaWaitOp wait, Value acc) {
    Operation *producer = producerOf(acc);
    if (!producer || !order.count(producer))
      return wait.getPending() == 0 ? GroupState::Retired : GroupState::Unknown;
    unsigned from = order[producer], to = order[wait];
    if (to < from) // the wait precedes the wgmma in program order (an earlier iteration's)
      return wait.getPending() == 0 ? GroupState::Retired : GroupState::Unknown;
    uint64_t commits = 0;
    for (unsigned k = from + 1; k < to; ++k)
      if (isa<WgmmaCommitOp>(ops[k]) &&
          (ops[k]->getBlock()->findAncestorOpInBlock(*producer) ||
           ops[k]->getBlock()->findAncestorOpInBlock(*wait)))
        ++commits;
    return commits >= wait.getPending() + 1 ? GroupState::Retired : GroupState::InFlight;
  }

  DenseMap<Operation *, unsigned> order;
  SmallVector<Operation *> ops;
};

struct Finding {
  Operation *loop = nullptr;
  Operation *def = nullptr;
  SmallVector<WgmmaRegsOp> readers;
  WgmmaWaitOp lastWait; // the last wait with pending > 0 on the path, if any
};

struct CakeVerifyWgmmaPass : cake::impl::CakeVerifyWgmmaPassBase<CakeVerifyWgmmaPass> {
  void runOnOperation() override {
    markAllAnalysesPreserved(); // A check changes no IR.
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
                << "this wait (pending " << lastWait.getPending()
                << ") does not retire the accumulator's group on every path to the read";
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
