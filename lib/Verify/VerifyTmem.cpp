//===- VerifyTmem.cpp - the tensor-memory protocol of a kernel ------------===//
//
// The tcgen05 rules the op verifiers cannot see: each allocation freed exactly once and not
// used after, and not while MMAs or copies into it may still run; each MMA and copy issued by
// one thread; no MMA accumulating into columns nothing (no MMA, copy or cake.tmem.store) wrote;
// no read of the accumulator before a commit after its last MMA has completed (waited on); one
// cta_group per kernel; a CTA pair's MMA after a cluster barrier that publishes both blocks'
// operands.
//
//===----------------------------------------------------------------------===//
#include "Cake/Analysis/ThreadModel.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/MemoryAccess.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"
#include "KernelCheck.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYTMEMPASS
#include "Cake/Verify/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {

/// The value of `v` when its op first runs: constants, loop counters at their lower bound,
/// iteration arguments at their initial value, integer ops folded over those.
std::optional<int64_t> firstTripValue(Value v, int depth = 0) {
  if (depth > 32)
    return std::nullopt;
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop)
      return std::nullopt;
    if (arg == loop.getInductionVar())
      return firstTripValue(loop.getLowerBound(), depth + 1);
    return firstTripValue(loop.getTiedLoopInit(arg)->get(), depth + 1);
  }
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumRegions() != 0)
    return std::nullopt;
  SmallVector<int64_t> args;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> a = firstTripValue(operand, depth + 1);
    if (!a)
      return std::nullopt;
    args.push_back(*a);
  }
  return foldIntegerOp(def, args);
}

struct CakeVerifyTmemPass : KernelCheckPass<CakeVerifyTmemPass, cake::impl::CakeVerifyTmemPassBase> {
  bool verifyKernel(KernelOp kernel) {
    bool any = false;
    kernel.walk([&](TmemAllocOp) { any = true; });
    return !any || verifyTensorMemory(kernel);
  }

  bool verifyTensorMemory(KernelOp kernel) {
    ThreadModel &model = getThreadModel(getAnalysisManager(), kernel);
    DenseMap<Operation *, unsigned> order = getProgramOrder(kernel);
    SmallVector<Tcgen05CommitOp> commits;
    SmallVector<MbarrierWaitOp> waits;
    kernel.walk([&](Operation *op) {
      if (auto commit = dyn_cast<Tcgen05CommitOp>(op))
        commits.push_back(commit);
      else if (auto wait = dyn_cast<MbarrierWaitOp>(op))
        waits.push_back(wait);
    });
    bool ok = verifyCtaGroup(kernel);
    kernel.walk([&](TmemAllocOp alloc) { ok &= verifyAllocation(model, order, alloc, commits, waits); });
    kernel.walk([&](Tcgen05MmaOp mma) {
      if (mma.getAcc().getType().getPair())
        ok &= verifyPairOperands(order, kernel, mma);
    });
    return ok;
  }

  /// PTX: every tcgen05 op of a kernel uses one cta_group. A pair allocation makes it 2, so every
  /// allocation and commit must then be a pair one (and none of them otherwise).
  bool verifyCtaGroup(KernelOp kernel) {
    SmallVector<Operation *> pairs, singles;
    kernel.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<TmemAllocOp>(op))
        (alloc.getTmem().getType().getPair() ? pairs : singles).push_back(op);
      else if (auto commit = dyn_cast<Tcgen05CommitOp>(op))
        (commit.getPair() ? pairs : singles).push_back(op);
    });
    if (pairs.empty() || singles.empty())
      return true;
    // The minority is the mistake; on a tie, the one-block ops.
    bool pairIsOdd = pairs.size() < singles.size();
    ArrayRef<Operation *> odd = pairIsOdd ? pairs : singles;
    for (Operation *op : odd) {
      InFlightDiagnostic diag = emitFinding(op, "tmem.cta-group-mixed")
                                << "expected every tensor-memory allocation and commit of the "
                                   "kernel to use one cta_group, got "
                                << (pairIsOdd ? "a CTA-pair (cta_group::2)" : "a one-block")
                                << " op among " << (pairIsOdd ? "one-block" : "CTA-pair")
                                << " ones";
      Operation *other = pairIsOdd ? singles.front() : pairs.front();
      diag.attachNote(other->getLoc()) << "the other cta_group, here";
      attachFix(diag, op, "tmem.cta-group-mixed",
                pairIsOdd ? "drop `pair` here (from the commit, or from the allocation's type)"
                          : "make it a pair op: `pair` on the commit, `, pair` in the "
                            "allocation's type");
    }
    return false;
  }

  /// The even block of a CTA pair reads the odd block's A and B: their copies must have landed
  /// there, which a wait in the odd block shows only to itself. A cluster barrier between the
  /// last write of each operand buffer and the MMA publishes it to the pair.
  bool verifyPairOperands(DenseMap<Operation *, unsigned> &order, KernelOp kernel,
                          Tcgen05MmaOp mma) {
    unsigned at = order.lookup(mma);
    SmallVector<unsigned> barriers;
    kernel.walk([&](ClusterBarrierOp barrier) { barriers.push_back(order.lookup(barrier)); });
    bool ok = true;
    for (Value buffer : {mma.getA(), mma.getB()}) {
      if (buffer == mma.getB() && mma.getA() == mma.getB())
        break; // one buffer for both operands: judged once
      Operation *lastWrite = nullptr;
      for (Operation *user : buffer.getUsers()) {
        if (order.lookup(user) >= at)
          continue;
        bool writes = llvm::any_of(getMemoryAccesses(user), [&](const MemoryAccess &access) {
          return access.buffer == buffer && access.kind == AccessKind::Write;
        });
        if (writes && (!lastWrite || order.lookup(user) > order.lookup(lastWrite)))
          lastWrite = user;
      }
      if (!lastWrite)
        continue;
      unsigned written = order.lookup(lastWrite);
      if (llvm::any_of(barriers, [&](unsigned b) { return b > written && b < at; }))
        continue;
      ok = false;
      InFlightDiagnostic diag = emitFinding(mma, "tmem.pair-unsynced")
                                << "issues a CTA-pair MMA that reads the other block's copy of "
                                   "this operand with no cluster barrier after its last write: "
                                   "the even block may read it before it lands";
      diag.attachNote(lastWrite->getLoc()) << "the operand's last write before the MMA";
      attachFix(diag, mma, "tmem.pair-unsynced",
                "after every block's wait for the operands (cake.mbarrier.wait), add "
                "cake.cluster_barrier before the MMA");
    }
    return ok;
  }

  bool verifyAllocation(ThreadModel &model, DenseMap<Operation *, unsigned> &order,
                        TmemAllocOp alloc, ArrayRef<Tcgen05CommitOp> commits,
                        ArrayRef<MbarrierWaitOp> waits) {
    bool ok = true;
    SmallVector<TmemDeallocOp> frees;
    SmallVector<Tcgen05MmaOp> mmas;
    SmallVector<Tcgen05CpOp> copies;
    SmallVector<TmemLoadOp> loads;
    SmallVector<TmemStoreOp> stores;
    for (Operation *user : alloc.getTmem().getUsers()) {
      if (auto free = dyn_cast<TmemDeallocOp>(user))
        frees.push_back(free);
      else if (auto mma = dyn_cast<Tcgen05MmaOp>(user))
        mmas.push_back(mma);
      else if (auto load = dyn_cast<TmemLoadOp>(user))
        loads.push_back(load);
      else if (auto store = dyn_cast<TmemStoreOp>(user))
        stores.push_back(store);
      else if (auto copy = dyn_cast<Tcgen05CpOp>(user))
        copies.push_back(copy);
    }
    auto byOrder = [&](Operation *a, Operation *b) { return order.lookup(a) < order.lookup(b); };
    llvm::sort(frees, byOrder);
    llvm::sort(mmas, byOrder);
    // The asynchronous writers of the columns: MMAs and copies, in program order.
    SmallVector<Operation *> asyncWriters;
    for (Tcgen05MmaOp mma : mmas)
      asyncWriters.push_back(mma);
    for (Tcgen05CpOp copy : copies)
      asyncWriters.push_back(copy);
    llvm::sort(asyncWriters, byOrder);
    auto lastWriterBefore = [&](Operation *op) {
      Operation *last = nullptr;
      for (Operation *writer : asyncWriters)
        if (order.lookup(writer) < order.lookup(op))
          last = writer;
      return last;
    };
    // Whether a commit after `writer` and a wait on its barrier phase, both before `user`, show
    // every earlier asynchronous write complete. The wait must lie on every path from the
    // writer to `user`: not in a branch of a condition every thread may skip alike (a
    // data-dependent `scf.if`, an `scf.while`) that holds neither of them, unless the other
    // branch waits too. (A branch only some threads take, such as the issuing thread's, is the
    // usual form: the block synchronizes after it.)
    auto onEveryPath = [&](MbarrierWaitOp wait, Operation *writer, Operation *user) {
      for (Operation *p = wait->getParentOp(); p && !p->isAncestor(user) && !p->isAncestor(writer);
           p = p->getParentOp()) {
        if (isa<scf::WhileOp>(p))
          return false;
        auto ifOp = dyn_cast<scf::IfOp>(p);
        if (!ifOp || model.isThreadDependent(ifOp.getCondition()))
          continue;
        Region &other = wait->getParentRegion() == &ifOp.getThenRegion() ||
                                ifOp.getThenRegion().isAncestor(wait->getParentRegion())
                            ? ifOp.getElseRegion()
                            : ifOp.getThenRegion();
        bool waitsToo = false;
        other.walk([&](MbarrierWaitOp w) { waitsToo |= w.getBarriers() == wait.getBarriers(); });
        if (!waitsToo)
          return false;
      }
      return true;
    };
    auto completedBefore = [&](Operation *writer, Operation *user) {
      unsigned at = order.lookup(user);
      return llvm::any_of(commits, [&](Tcgen05CommitOp commit) {
        unsigned c = order.lookup(commit);
        if (c < order.lookup(writer) || c > at)
          return false;
        return llvm::any_of(waits, [&](MbarrierWaitOp wait) {
          unsigned w = order.lookup(wait);
          return w > c && w < at && wait.getBarriers() == commit.getBarriers() &&
                 model.sameValue(wait.getIndex(), commit.getIndex()) &&
                 onEveryPath(wait, writer, user);
        });
      });
    };

    if (frees.size() != 1) {
      ok = false;
      InFlightDiagnostic diag = emitFinding(alloc, "tmem.dealloc-count")
                                << "expected the allocation to be freed once, got "
                                << frees.size() << " cake.tmem.dealloc";
      for (TmemDeallocOp free : frees)
        diag.attachNote(free.getLoc()) << "freed here";
      attachFix(diag, alloc, "tmem.dealloc-count",
                frees.empty() ? "free it with cake.tmem.dealloc after its last use, before "
                                "cake.return (columns left allocated block the next block "
                                "scheduled on the SM)"
                              : "keep one cake.tmem.dealloc, after the allocation's last use");
    }
    if (!frees.empty()) {
      unsigned freed = order.lookup(frees.front());
      for (Operation *user : alloc.getTmem().getUsers()) {
        if (isa<TmemDeallocOp>(user) || order.lookup(user) < freed)
          continue;
        ok = false;
        InFlightDiagnostic diag = emitFinding(user, "tmem.use-after-dealloc")
                                  << "uses tensor memory after its cake.tmem.dealloc";
        diag.attachNote(frees.front().getLoc()) << "freed here";
        attachFix(diag, user, "tmem.use-after-dealloc",
                  "move the cake.tmem.dealloc after the allocation's last use");
      }
      // The dealloc's block barrier orders threads, not the asynchronous MMAs and copies: the
      // columns may be freed (and given to the next block) while they still write them.
      Operation *last = lastWriterBefore(frees.front());
      if (last && !completedBefore(last, frees.front())) {
        ok = false;
        InFlightDiagnostic diag = emitFinding(frees.front(), "tmem.dealloc-in-flight")
                                  << "frees tensor memory that MMAs or copies may still be "
                                     "writing: no commit after the last of them is waited on "
                                     "before the free";
        diag.attachNote(last->getLoc()) << "the last asynchronous write before the free";
        attachFix(diag, frees.front(), "tmem.dealloc-in-flight",
                  "after the last MMA or copy, cake.tcgen05.commit on an mbarrier (the issuing "
                  "thread) and cake.mbarrier.wait on that phase before cake.tmem.dealloc");
      }
    }

    for (Operation *writer : asyncWriters) {
      Executors who = model.executors(writer);
      if (who.exact && who.count() > 1) {
        ok = false;
        InFlightDiagnostic diag = emitFinding(writer, "tmem.mma-threads");
        if (isa<Tcgen05CpOp>(writer))
          diag << "expected one thread to issue the copy, got " << who.count()
               << ": each issues its own copy of the tile";
        else
          diag << "expected one thread to issue the MMA, got " << who.count()
               << ": each issues its own, so the product is added " << who.count() << " times";
        attachFix(diag, writer, "tmem.mma-threads",
                  "issue it from one thread: under scf.if on cake.elect_one in one warp, or on "
                  "a thread id test");
      }
    }
    // The first MMA into an allocation must overwrite it: tensor memory starts undefined (unless
    // a cake.tmem.store or a cake.tcgen05.cp wrote the columns first: an initial value).
    auto before = [&](Operation *op) { return order.lookup(op) < order.lookup(mmas.front()); };
    bool storedFirst =
        !mmas.empty() && (llvm::any_of(stores, before) || llvm::any_of(copies, before));
    std::optional<int64_t> firstFlag =
        mmas.empty() ? std::nullopt : firstTripValue(mmas.front().getAccumulate());
    if (!mmas.empty() && !storedFirst && firstFlag && *firstFlag != 0) { // i1 true folds to -1
      ok = false;
      InFlightDiagnostic diag = emitFinding(mmas.front(), "tmem.accumulate-unwritten")
                                << "accumulates into tensor memory that no earlier MMA wrote: "
                                   "its columns are undefined after cake.tmem.alloc";
      diag.attachNote(alloc.getLoc()) << "allocated here";
      attachFix(diag, mmas.front(), "tmem.accumulate-unwritten",
                "pass accumulate false on the first MMA of each tile (for example `kt > 0` "
                "for the first k step of a loop)");
    }

    for (TmemLoadOp load : loads) {
      Operation *last = lastWriterBefore(load);
      if (!last)
        continue; // reads columns no MMA or copy wrote: the program's own business (tcgen05.st)
      bool published = completedBefore(last, load);
      if (published)
        continue;
      ok = false;
      InFlightDiagnostic diag = emitFinding(load, "tmem.read-before-commit")
                                << "reads the accumulator before the MMAs that write it are "
                                   "known to have completed";
      diag.attachNote(last->getLoc()) << "the last MMA or copy into it before the read";
      attachFix(diag, load, "tmem.read-before-commit",
                "after the last MMA, cake.tcgen05.commit on an mbarrier (the issuing thread), "
                "then cake.mbarrier.wait on that barrier in every reading thread before "
                "cake.tmem.load");
    }
    return ok;
  }
};

} // namespace
