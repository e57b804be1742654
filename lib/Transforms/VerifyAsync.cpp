//===- VerifyAsync.cpp - cp.async and TMA-store group protocols -----------===//
//
// Both protocols are thread-local bulk groups: copies join the thread's open group, a commit
// closes it, a wait with `pending` P blocks until at most P committed groups are in flight. The
// pass follows the kernel in program order (pre-order; a loop body wraps around to its start for
// the next iteration) and checks that copies are committed before a wait, commits are waited for,
// and a wait's first execution has more committed groups than it leaves pending.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/Findings.h"
#include "Cake/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYASYNCPASS
#include "Cake/Transforms/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
/// One protocol: its ops and rule ids.
struct Protocol {
  StringRef what;       // "cp.async copy"
  StringRef commitName; // "cake.cp_async.commit"
  StringRef waitName;
  StringRef ruleUncommitted, ruleNoWait, ruleWaitCount;
  function_ref<bool(Operation *)> isCopy, isCommit, isWait;
  function_ref<int64_t(Operation *)> pending;
};

/// The kernel's ops in program order with their positions.
struct ProgramOrder {
  SmallVector<Operation *> ops;
  DenseMap<Operation *, size_t> index;

  explicit ProgramOrder(KernelOp kernel) {
    kernel.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
      index[op] = ops.size();
      ops.push_back(op);
    });
  }

  /// The first op after `op` that `pred` accepts: later in program order, else (for the next
  /// iteration) from the start of the innermost enclosing loop that has one before `op`.
  Operation *next(Operation *op, function_ref<bool(Operation *)> pred) const {
    size_t at = index.lookup(op);
    for (size_t i = at + 1; i < ops.size(); ++i)
      if (pred(ops[i]))
        return ops[i];
    for (Operation *loop = op->getParentOp(); loop && !isa<KernelOp>(loop);
         loop = loop->getParentOp()) {
      if (!isa<scf::ForOp, scf::WhileOp>(loop))
        continue;
      for (size_t i = index.lookup(loop) + 1; i < at; ++i)
        if (loop->isProperAncestor(ops[i]) && pred(ops[i]))
          return ops[i];
    }
    return nullptr;
  }
};

/// The constant trip count of an scf.for, if it has one.
std::optional<int64_t> getTripCount(Operation *op) {
  auto loop = dyn_cast<scf::ForOp>(op);
  if (!loop)
    return std::nullopt;
  APInt lb, ub, step;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
      !matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) || step.getSExtValue() <= 0)
    return std::nullopt;
  int64_t n = ub.getSExtValue() - lb.getSExtValue();
  return n <= 0 ? 0 : (n + step.getSExtValue() - 1) / step.getSExtValue();
}

/// How many times `op` runs before `until` first runs: the trip counts of the loops around `op`
/// that are not around `until`. Unknown under conditions or loops with non-constant bounds.
std::optional<int64_t> getRunsBefore(Operation *op, Operation *until) {
  int64_t runs = 1;
  for (Operation *parent = op->getParentOp(); parent && !isa<KernelOp>(parent);
       parent = parent->getParentOp()) {
    if (parent->isAncestor(until))
      break;
    if (isa<scf::IfOp, scf::WhileOp, scf::IndexSwitchOp>(parent))
      return std::nullopt;
    if (isa<scf::ForOp>(parent)) {
      std::optional<int64_t> trips = getTripCount(parent);
      if (!trips)
        return std::nullopt;
      runs *= *trips;
    }
  }
  return runs;
}

bool checkProtocol(KernelOp kernel, const ProgramOrder &order, const Protocol &p) {
  bool ok = true;
  auto isCommitOrWait = [&](Operation *op) { return p.isCommit(op) || p.isWait(op); };
  for (Operation *op : order.ops) {
    if (p.isCopy(op)) {
      Operation *next = order.next(op, isCommitOrWait);
      if (next && p.isCommit(next))
        continue;
      ok = false;
      InFlightDiagnostic diag = emitFinding(op, p.ruleUncommitted)
                                << "expected a " << p.commitName << " after this " << p.what
                                << " before " << (next ? "the wait" : "the kernel ends")
                                << ": no wait covers an uncommitted copy";
      if (next)
        diag.attachNote(next->getLoc()) << "the next wait is here";
      attachFix(diag, op, p.ruleUncommitted,
                "add " + p.commitName.str() + " after the last copy of the group" +
                    (next ? ", before this wait" : ""));
      continue;
    }
    if (p.isCommit(op)) {
      // The group is retired by a later wait of this thread (or a later iteration's).
      if (order.next(op, p.isWait))
        continue;
      ok = false;
      InFlightDiagnostic diag = emitFinding(op, p.ruleNoWait)
                                << "expected a " << p.waitName
                                << " after this commit: the group is never waited for";
      attachFix(diag, op, p.ruleNoWait,
                "add " + p.waitName.str() + " 0 before the data is used or the kernel ends");
      continue;
    }
    if (!p.isWait(op))
      continue;
    // Groups committed before the first execution of the wait.
    int64_t committed = 0;
    bool known = true, copied = false;
    SmallVector<Operation *> commits;
    for (size_t i = 0, e = order.index.lookup(op); i < e && known; ++i) {
      Operation *before = order.ops[i];
      copied |= p.isCopy(before);
      if (!p.isCommit(before))
        continue;
      std::optional<int64_t> runs = getRunsBefore(before, op);
      if (!runs)
        known = false;
      else
        committed += *runs;
      commits.push_back(before);
    }
    int64_t pending = p.pending(op);
    // With no group at all, the uncommitted copies are the finding (async.*-uncommitted).
    if (!known || !copied || committed == 0 || pending < committed)
      continue;
    ok = false;
    InFlightDiagnostic diag = emitFinding(op, p.ruleWaitCount)
                              << "expected pending below the " << committed
                              << " groups committed before the first execution of this wait, got "
                              << pending << ": it waits for no copy";
    for (Operation *commit : ArrayRef(commits).take_front(3))
      diag.attachNote(commit->getLoc()) << "a group is committed here";
    attachFix(diag, op, p.ruleWaitCount,
              "wait with pending " + std::to_string(committed - 1) + " (or fewer)");
  }
  (void)kernel;
  return ok;
}

struct CakeVerifyAsyncPass : cake::impl::CakeVerifyAsyncPassBase<CakeVerifyAsyncPass> {
  void runOnOperation() override {
    bool ok = true;
    auto isCpAsync = [](Operation *op) { return isa<CpAsyncOp>(op); };
    auto isCpCommit = [](Operation *op) { return isa<CpAsyncCommitOp>(op); };
    auto isCpWait = [](Operation *op) { return isa<CpAsyncWaitOp>(op); };
    auto cpPending = [](Operation *op) {
      return static_cast<int64_t>(cast<CpAsyncWaitOp>(op).getPending());
    };
    auto isTmaStore = [](Operation *op) { return isa<TmaStoreOp>(op); };
    auto isTmaCommit = [](Operation *op) { return isa<TmaStoreCommitOp>(op); };
    auto isTmaWait = [](Operation *op) { return isa<TmaStoreWaitOp>(op); };
    auto tmaPending = [](Operation *op) {
      return static_cast<int64_t>(cast<TmaStoreWaitOp>(op).getPending());
    };
    Protocol cpAsync{"cp.async copy",
                     "cake.cp_async.commit",
                     "cake.cp_async.wait",
                     "async.cp-async-uncommitted",
                     "async.cp-async-no-wait",
                     "async.cp-async-wait-count",
                     isCpAsync,
                     isCpCommit,
                     isCpWait,
                     cpPending};
    Protocol tmaStore{"TMA store",
                      "cake.tma.store_commit",
                      "cake.tma.store_wait",
                      "async.tma-store-uncommitted",
                      "async.tma-store-no-wait",
                      "async.tma-store-wait-count",
                      isTmaStore,
                      isTmaCommit,
                      isTmaWait,
                      tmaPending};
    getOperation()->walk([&](KernelOp kernel) {
      ProgramOrder order(kernel);
      ok &= checkProtocol(kernel, order, cpAsync);
      ok &= checkProtocol(kernel, order, tmaStore);
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
