//===- VerifySmem.cpp - shared memory against the target's limit ----------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/Findings.h"
#include "Cake/Transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYSMEMPASS
#include "Cake/Transforms/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
struct Allocation {
  Operation *op;
  int64_t bytes;
  int64_t offset;
  std::string what;
};

/// Notes at this many of the biggest allocations.
constexpr unsigned kMaxNotes = 3;

struct CakeVerifySmemPass : cake::impl::CakeVerifySmemPassBase<CakeVerifySmemPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](KernelOp kernel) { failed |= !verifyKernel(kernel); });
    if (failed)
      signalPassFailure();
  }

  static bool verifyKernel(KernelOp kernel) {
    SharedMemoryLayout layout = kernel.getSharedMemoryLayout();
    int64_t dynamic = kernel.getDynamicSmem();
    int64_t total = layout.totalBytes + dynamic;
    int64_t limit = kernel.getMaxSharedBytes();
    if (total <= limit)
      return true;

    SmallVector<Allocation> allocations;
    int64_t used = 0;
    kernel.walk([&](Operation *op) {
      auto it = layout.offsets.find(op);
      if (it == layout.offsets.end())
        return;
      Allocation a{op, 0, it->second, ""};
      if (auto alloc = dyn_cast<AllocSmemOp>(op)) {
        SmemType type = alloc.getBuffer().getType();
        a.bytes = type.getSizeInBytes();
        llvm::raw_string_ostream os(a.what);
        os << type;
      } else if (auto bars = dyn_cast<MbarrierAllocOp>(op)) {
        a.bytes = 8 * bars.getBarriers().getType().getCount();
        a.what = "mbarriers";
      } else if (auto pipe = dyn_cast<PipelineCreateOp>(op)) {
        a.bytes = 16 * pipe.getPipeline().getType().getStages();
        a.what = "pipeline barriers";
      }
      used += a.bytes;
      allocations.push_back(std::move(a));
    });
    llvm::sort(allocations, [](const Allocation &a, const Allocation &b) {
      return a.bytes != b.bytes ? a.bytes > b.bytes : a.offset < b.offset;
    });

    InFlightDiagnostic diag = emitFinding(kernel, "smem.over-limit")
                              << "expected at most " << limit << " bytes of shared memory on "
                              << kernel.getTarget() << ", got " << total << " ("
                              << layout.totalBytes - used << " bytes of alignment padding, "
                              << dynamic << " bytes of dynamic_smem)";
    for (const Allocation &a : llvm::ArrayRef(allocations).take_front(kMaxNotes))
      diag.attachNote(a.op->getLoc())
          << a.bytes << " bytes at offset " << a.offset << " (" << a.what << ")";

    // The hint: shrink the biggest buffer, by a stage when it has several.
    int64_t excess = total - limit;
    std::string hint = "free at least " + std::to_string(excess) + " bytes";
    if (!allocations.empty()) {
      if (auto alloc = dyn_cast<AllocSmemOp>(allocations.front().op)) {
        SmemType type = alloc.getBuffer().getType();
        if (type.getRank() >= 2 && type.getShape()[0] > 1) {
          int64_t stage = type.getSizeInBytes() / type.getShape()[0];
          int64_t drop = (excess + stage - 1) / stage;
          if (drop < type.getShape()[0])
            hint += ": e.g. give the biggest buffer " + std::to_string(type.getShape()[0] - drop) +
                    " instead of " + std::to_string(type.getShape()[0]) +
                    " stages (leading dimension; keep its pipeline's stages equal), or use "
                    "smaller tiles";
          else
            hint += ": use smaller tiles";
        } else {
          hint += ": use smaller tiles or fewer buffers";
        }
      }
    }
    attachFix(diag, kernel, "smem.over-limit", hint);
    return false;
  }
};
} // namespace
