//===- PrintThreadModel.cpp - cake-print-thread-model ---------------------===//
//
// Shows what the verifier's thread model knows: for each op that synchronizes, touches memory or
// branches, which threads of the block execute it, and whether that is exact. With `sizes=`
// (and `block=`) the model is one concrete launch, as cake-verify-shapes builds it.
//
//===----------------------------------------------------------------------===//
#include "Cake/Analysis/Passes.h"
#include "Cake/Analysis/ProblemSizes.h"
#include "Cake/Analysis/ThreadModel.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/MemoryAccess.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEPRINTTHREADMODELPASS
#include "Cake/Analysis/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

/// "[0, 3) [32, 35)": the set bits as ranges, at most `maxRanges` of them.
static std::string describeThreads(const llvm::BitVector &threads, unsigned maxRanges = 4) {
  std::string text;
  unsigned ranges = 0;
  int size = threads.size();
  for (int lo = threads.find_first(); lo >= 0;) {
    int hi = threads.find_next_unset(lo);
    if (hi < 0)
      hi = size;
    if (++ranges > maxRanges)
      return text + " ...";
    text += (text.empty() ? "[" : " [") + std::to_string(lo) + ", " + std::to_string(hi) + ")";
    lo = hi < size ? threads.find_next(hi) : -1;
  }
  return text.empty() ? "none" : text;
}

static bool isShown(Operation *op) {
  return isBlockBarrier(op) || getCollectiveGroup(op) || isa<MemoryAccessOpInterface>(op) ||
         isa<scf::IfOp, scf::ForOp, MbarrierInitOp, MbarrierArriveOp, MbarrierArriveExpectTxOp,
             MbarrierWaitOp, ElectOneOp>(op);
}

namespace {
struct CakePrintThreadModelPass
    : cake::impl::CakePrintThreadModelPassBase<CakePrintThreadModelPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<ShapeProbe> probe;
    if (!sizes.empty() || !block.empty()) {
      llvm::Expected<llvm::StringMap<int64_t>> parsed = parseProblemSizes(sizes);
      if (!parsed) {
        getOperation()->emitError() << "cake-print-thread-model: "
                                    << llvm::toString(parsed.takeError());
        return signalPassFailure();
      }
      probe.emplace();
      probe->sizes = std::move(*parsed);
      SmallVector<StringRef> ids;
      StringRef(block).split(ids, ',', -1, /*KeepEmpty=*/false);
      if (ids.size() > 3) {
        getOperation()->emitError()
            << "cake-print-thread-model: invalid block '" << block << "': expected X[,Y[,Z]]";
        return signalPassFailure();
      }
      for (auto [d, id] : llvm::enumerate(ids))
        if (id.trim().getAsInteger(10, probe->blockId[d]) || probe->blockId[d] < 0) {
          getOperation()->emitError() << "cake-print-thread-model: invalid block '" << block
                                      << "': expected X[,Y[,Z]] with non-negative integers";
          return signalPassFailure();
        }
    }
    getOperation()->walk([&](KernelOp kernel) { print(kernel, probe); });
  }

  void print(KernelOp kernel, std::optional<ShapeProbe> probe) {
    // Grid extents at the given sizes, when every size the grid needs is given.
    if (probe && !bindGrid(kernel, *probe))
      probe->gridDim[0] = probe->gridDim[1] = probe->gridDim[2] = 1;
    ThreadModel model = probe ? ThreadModel(kernel, *probe) : ThreadModel(kernel);
    kernel->emitRemark() << "thread model: " << model.getNumThreads() << " threads per block"
                         << (probe ? ", one launch (sizes and block bound)"
                                   : ", sizes and block ids unknown");
    kernel.walk([&](Operation *op) {
      if (!isShown(op))
        return;
      Executors ex = model.executors(op);
      InFlightDiagnostic remark = op->emitRemark();
      remark << "executed by " << (ex.exact ? "" : "at most ") << ex.count() << " of "
             << model.getNumThreads() << " threads: " << describeThreads(ex.threads);
      if (!ex.exact)
        remark << " (not exact: some reach it under conditions the model cannot decide)";
      if (Operation *divergent = model.findDivergentAncestor(op))
        remark.attachNote(divergent->getLoc()) << "control flow here depends on the thread";
    });
  }
};
} // namespace
