//===- VerifyTmem.cpp - the tensor-memory protocol of a kernel ------------===//
//
// The tcgen05 rules the op verifiers cannot see: each allocation freed exactly once and not
// used after; each MMA issued by one thread; no MMA accumulating into columns nothing (no MMA,
// no cake.tmem.store) wrote; no
// read of the accumulator before a commit after its last MMA has completed (waited on).
//
//===----------------------------------------------------------------------===//
#include "Cake/Analysis/ThreadModel.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/Findings.h"
#include "Cake/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYTMEMPASS
#include "Cake/Transforms/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {

struct CakeVerifyTmemPass : cake::impl::CakeVerifyTmemPassBase<CakeVerifyTmemPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation()->walk([&](KernelOp kernel) {
      bool any = false;
      kernel.walk([&](TmemAllocOp) { any = true; });
      if (any)
        ok &= verifyKernel(kernel);
    });
    if (!ok)
      signalPassFailure();
  }

  bool verifyKernel(KernelOp kernel) {
    ThreadModel model(kernel);
    DenseMap<Operation *, unsigned> order = getProgramOrder(kernel);
    SmallVector<Tcgen05CommitOp> commits;
    SmallVector<MbarrierWaitOp> waits;
    kernel.walk([&](Operation *op) {
      if (auto commit = dyn_cast<Tcgen05CommitOp>(op))
        commits.push_back(commit);
      else if (auto wait = dyn_cast<MbarrierWaitOp>(op))
        waits.push_back(wait);
    });
    bool ok = true;
    kernel.walk([&](TmemAllocOp alloc) { ok &= verifyAllocation(model, order, alloc, commits, waits); });
    return ok;
  }

  bool verifyAllocation(ThreadModel &model, DenseMap<Operation *, unsigned> &order,
                        TmemAllocOp alloc, ArrayRef<Tcgen05CommitOp> commits,
                        ArrayRef<MbarrierWaitOp> waits) {
    bool ok = true;
    SmallVector<TmemDeallocOp> frees;
    SmallVector<Tcgen05MmaOp> mmas;
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
    }
    auto byOrder = [&](Operation *a, Operation *b) { return order.lookup(a) < order.lookup(b); };
    llvm::sort(frees, byOrder);
    llvm::sort(mmas, byOrder);

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
    }

    for (Tcgen05MmaOp mma : mmas) {
      Executors who = model.executors(mma);
      if (who.exact && who.count() > 1) {
        ok = false;
        InFlightDiagnostic diag = emitFinding(mma, "tmem.mma-threads")
                                  << "expected one thread to issue the MMA, got " << who.count()
                                  << ": each issues its own, so the product is added "
                                  << who.count() << " times";
        attachFix(diag, mma, "tmem.mma-threads",
                  "issue it from one thread: under scf.if on cake.elect_one in one warp, or on "
                  "a thread id test");
      }
    }
    // The first MMA into an allocation must overwrite it: tensor memory starts undefined (unless
    // a cake.tmem.store wrote the columns first: an initial value).
    bool storedFirst = !mmas.empty() && llvm::any_of(stores, [&](TmemStoreOp store) {
      return order.lookup(store) < order.lookup(mmas.front());
    });
    if (!mmas.empty() && !storedFirst && matchPattern(mmas.front().getAccumulate(), m_One())) {
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
      unsigned at = order.lookup(load);
      Tcgen05MmaOp last;
      for (Tcgen05MmaOp mma : mmas)
        if (order.lookup(mma) < at)
          last = mma;
      if (!last)
        continue; // reads columns no MMA wrote: the program's own business (tcgen05.st)
      bool published = llvm::any_of(commits, [&](Tcgen05CommitOp commit) {
        unsigned c = order.lookup(commit);
        if (c < order.lookup(last) || c > at)
          return false;
        return llvm::any_of(waits, [&](MbarrierWaitOp wait) {
          unsigned w = order.lookup(wait);
          return w > c && w < at && wait.getBarriers() == commit.getBarriers() &&
                 model.sameValue(wait.getIndex(), commit.getIndex());
        });
      });
      if (published)
        continue;
      ok = false;
      InFlightDiagnostic diag = emitFinding(load, "tmem.read-before-commit")
                                << "reads the accumulator before the MMAs that write it are "
                                   "known to have completed";
      diag.attachNote(last.getLoc()) << "the last MMA into it before the read";
      attachFix(diag, load, "tmem.read-before-commit",
                "after the last MMA, cake.tcgen05.commit on an mbarrier (the issuing thread), "
                "then cake.mbarrier.wait on that barrier in every reading thread before "
                "cake.tmem.load");
    }
    return ok;
  }
};

} // namespace
