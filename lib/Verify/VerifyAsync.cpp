//===- VerifyAsync.cpp - cp.async and TMA-store group protocols -----------===//
//
// Both protocols are thread-local bulk groups: copies join the thread's open group, a commit
// closes it, a wait with `pending` P blocks until at most P committed groups are in flight. The
// pass follows the kernel in program order (pre-order; a loop body wraps around to its start for
// the next iteration) and checks that copies are committed before a wait, commits are waited for,
// and a wait's first execution has more committed groups than it leaves pending.
//
// It also checks each cp.async's addresses per thread (with the thread model): both must be
// aligned to the copy size, and the copy must stay inside the innermost row of the shared buffer
// (and of the source tensor when unmasked). Only what is certain in some thread that executes the
// copy is reported: indices are evaluated exactly where the model knows them, and modulo a power
// of two where only their low bits are known (a loop counter times 32, a block id times 128).
//
//===----------------------------------------------------------------------===//
#include "KernelCheck.h"
#include "Cake/Analysis/IndexResidues.h"
#include "Cake/Analysis/ThreadModel.h"

#include "Cake/IR/CakeOps.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"
#include "PathSimulation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/bit.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYASYNCPASS
#include "Cake/Verify/Passes.h.inc"
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
      // With no wait after it, a commit alone would leave a group nothing retires
      // (async.*-no-wait): the hint adds the wait too.
      attachFix(diag, op, p.ruleUncommitted,
                "add " + p.commitName.str() + " after the last copy of the group" +
                    (next ? ", before this wait"
                          : ", then " + p.waitName.str() +
                                " 0 before the data is used or the kernel ends"));
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
    // Pending 0 retires every group; a higher count is only right where a later wait retires
    // the groups it leaves in flight before their data is read, which is not known here.
    std::string hint = "wait with pending 0";
    if (committed > 1)
      hint += " (pending up to " + std::to_string(committed - 1) +
              " keeps the newest groups in flight only where a later wait retires them before "
              "their data is read or the kernel ends)";
    attachFix(diag, op, p.ruleWaitCount, hint);
  }
  (void)kernel;
  return ok;
}

//===----------------------------------------------------------------------===//
// cp.async addresses
//===----------------------------------------------------------------------===//

/// Indices beyond this are left alone (they come from fuzzed or broken IR; no overflow).
constexpr int64_t kHuge = int64_t(1) << 40;

std::string describeResidue(Residue r, int64_t modulus, std::optional<int64_t> exact) {
  if (exact)
    return std::to_string(*exact);
  return std::to_string(r.value & (modulus - 1)) + " modulo " + std::to_string(modulus);
}

/// Checks one cp.async's addresses in every thread that may execute it.
bool checkCpAsyncAddresses(ThreadModel &model, ResidueModel &residues, CpAsyncOp copy) {
  bool ok = true;
  int64_t bytes = copy.getBytes(), width = copy.getWidth();
  SmemType dest = copy.getDest().getType();
  GlobalTensorType source = copy.getSource().getType();
  ArrayRef<Reach> reach = model.reach(copy);
  auto executes = [&](int64_t t) { return reach[t].kind != Reach::Never; };
  int64_t numThreads = model.getNumThreads();
  Operation *alloc = copy.getDest().getDefiningOp();

  /// The byte offset of `indices` scaled by `strides` (bytes per index; nullopt for a symbolic
  /// stride, which the manifest keeps a multiple of the copy's width) in every thread.
  auto byteOffsets = [&](OperandRange indices, ArrayRef<std::optional<int64_t>> strides) {
    std::vector<Residue> sum(numThreads, Residue::exact(0));
    std::vector<std::optional<int64_t>> exact(numThreads, int64_t(0));
    for (auto [index, stride] : llvm::zip(indices, strides)) {
      std::vector<Residue> r = residues.get(index);
      ArrayRef<Lat> lats = model.eval(index);
      // A symbolic stride is a multiple of the width: its bytes a multiple of the copy size.
      Residue factor = stride ? Residue::exact(*stride) : Residue::make(llvm::Log2_64(bytes), 0);
      for (int64_t t = 0; t < numThreads; ++t) {
        sum[t] = addResidue(sum[t], mulResidue(r[t], factor));
        // Exact offsets only for indices of a sane size (no overflow on fuzzed input).
        if (exact[t] && stride && lats[t].kind == Lat::Known && std::abs(lats[t].value) < kHuge)
          *exact[t] += lats[t].value * *stride;
        else
          exact[t].reset();
      }
    }
    return std::make_pair(sum, exact);
  };

  // The first executing thread for which `offends` holds, and how many do (-1, 0: none).
  auto offenders = [&](function_ref<bool(int64_t)> offends) {
    int64_t first = -1, count = 0;
    for (int64_t t = 0; t < numThreads; ++t)
      if (executes(t) && offends(t) && count++ == 0)
        first = t;
    return std::make_pair(first, count);
  };
  auto andOthers = [](int64_t count) {
    return count > 1 ? " (and " + std::to_string(count - 1) + " other threads)" : std::string();
  };

  // Alignment, destination then source: the first thread whose offset is certainly not a
  // multiple of the copy size.
  auto checkAlign = [&](bool isDest, OperandRange indices,
                        ArrayRef<std::optional<int64_t>> strides) {
    auto [offsetsOf, exact] = byteOffsets(indices, strides);
    const auto &offsets = offsetsOf; // a plain reference: lambdas capture it in C++17
    auto [bad, count] = offenders([&](int64_t t) {
      return offsets[t].knownModulo(bytes) && (offsets[t].value & (bytes - 1)) != 0;
    });
    if (bad < 0)
      return;
    ok = false;
    InFlightDiagnostic diag = emitFinding(copy, "async.cp-async-align")
                              << "expected the " << (isDest ? "shared destination" : "global source")
                              << " address to be aligned to the copy size (" << bytes
                              << " bytes), got byte offset "
                              << describeResidue(offsets[bad], bytes, exact[bad]) << " in thread "
                              << bad << andOthers(count);
    std::string hint;
    if (isDest) {
      if (alloc && dest.getRank() >= 2)
        diag.attachNote(alloc->getLoc())
            << "the buffer's rows are "
            << dest.getElementStrides()[dest.getRank() - 2] * dest.getElementBytes()
            << " bytes apart" << (dest.getPad() ? " (padded)" : "");
      hint = "make the destination indices land on multiples of " + std::to_string(width) +
             " elements (" + std::to_string(bytes) + " bytes)" +
             (dest.getPad() ? ", with a pad that keeps every row " + std::to_string(bytes) +
                                  "-byte aligned (a multiple of " + std::to_string(width) +
                                  " elements)"
                            : std::string());
    } else {
      hint = "start the copy at an innermost coordinate that is a multiple of " +
             std::to_string(width) + " elements, in rows whose stride is a multiple of " +
             std::to_string(width) + " elements";
    }
    attachFix(diag, copy, "async.cp-async-align", hint);
  };
  SmallVector<std::optional<int64_t>> destStrides, sourceStrides;
  for (int64_t stride : dest.getElementStrides())
    destStrides.push_back(stride * dest.getElementBytes());
  for (unsigned dim = 0; dim < source.getRank(); ++dim) {
    std::optional<int64_t> stride = source.getStaticStride(dim);
    sourceStrides.push_back(stride ? std::optional<int64_t>(*stride * source.getElementBytes())
                                   : std::nullopt);
  }
  checkAlign(/*isDest=*/true, copy.getDestIndices(), destStrides);
  checkAlign(/*isDest=*/false, copy.getSourceIndices(), sourceStrides);

  // Row overrun: [inner, inner + width) must lie inside the innermost extent, where the thread's
  // innermost index is known. The source only when unmasked (a masked copy zero-fills past the
  // extent) and with a static innermost extent.
  auto checkRow = [&](bool isDest, Value inner, int64_t extent) {
    ArrayRef<Lat> lats = model.eval(inner);
    auto [bad, count] = offenders([&](int64_t t) {
      return lats[t].kind == Lat::Known && lats[t].value >= 0 && lats[t].value < kHuge &&
             lats[t].value > extent - width;
    });
    if (bad < 0)
      return;
    ok = false;
    int64_t at = lats[bad].value;
    InFlightDiagnostic diag =
        emitFinding(copy, "async.cp-async-row-overrun")
        << "expected the copy of " << width << " elements to stay inside the "
        << (isDest ? "destination's" : "source's") << " innermost row of " << extent
        << " elements, got elements [" << at << ", " << at + width << ") in thread " << bad
        << andOthers(count);
    if (isDest && alloc)
      diag.attachNote(alloc->getLoc()) << "the buffer is allocated here";
    attachFix(diag, copy, "async.cp-async-row-overrun",
              isDest ? "keep the innermost index at most " + std::to_string(extent - width) +
                           " (split the row into " + std::to_string(extent / width) +
                           " copies of " + std::to_string(width) + " elements)"
                     : std::string("add 'masked' (it zero-fills past the extent) or keep the "
                                   "innermost coordinate at most ") +
                           std::to_string(extent - width));
  };
  checkRow(/*isDest=*/true, copy.getDestIndices().back(), dest.getShape().back());
  if (!copy.getMasked())
    if (auto extent = dyn_cast<IntegerAttr>(source.getShape()[source.getRank() - 1]))
      checkRow(/*isDest=*/false, copy.getSourceIndices().back(), extent.getInt());
  return ok;
}

struct CakeVerifyAsyncPass : cake::impl::CakeVerifyAsyncPassBase<CakeVerifyAsyncPass> {
  void runOnOperation() override {
    markAllAnalysesPreserved(); // A check changes no IR.
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
      bool cpProtocol = checkProtocol(kernel, order, cpAsync);
      ok &= cpProtocol;
      ok &= checkProtocol(kernel, order, tmaStore);
      ThreadModel &model = getThreadModel(getAnalysisManager(), kernel);
      ResidueModel residues(model);
      kernel.walk([&](CpAsyncOp copy) { ok &= checkCpAsyncAddresses(model, residues, copy); });
      // A group left pending at exit is judged only where the commits and waits are otherwise
      // consistent: a missing or too lax wait is already reported at its op.
      ok &= verifyCpAsyncVisibility(kernel, model, /*checkExit=*/cpProtocol);
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
