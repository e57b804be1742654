//===- VerifySmem.cpp - shared memory against the target's limit ----------===//
#include "Cake/Analysis/IndexRange.h"

#include "Cake/IR/CakeOps.h"
#include "Cake/IR/MemoryAccess.h"
#include "Cake/IR/Target.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"
#include "KernelCheck.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYSMEMPASS
#include "Cake/Verify/Passes.h.inc"
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

struct CakeVerifySmemPass : KernelCheckPass<CakeVerifySmemPass, cake::impl::CakeVerifySmemPassBase> {
  /// The segment's size, then every access's bounds (both report, whatever the first found).
  bool verifyKernel(KernelOp kernel) {
    bool sizeOk = verifySize(kernel);
    return verifyBounds(kernel) && sizeOk;
  }

  /// Every shared-memory access stays inside its buffer: for each thread that reaches the op
  /// unconditionally, each index over every value it takes (IndexRanges) lies in its dimension,
  /// the innermost one with the access's width. Ops under conditions on loop counters or problem
  /// sizes are not judged (the condition may be the bound).
  bool verifyBounds(KernelOp kernel) {
    ThreadModel &model = getThreadModel(getAnalysisManager(), kernel);
    IndexRanges ranges(model);
    bool ok = true;
    kernel.walk([&](MemoryAccessOpInterface op) {
      ArrayRef<Reach> reach = model.reach(op);
      for (const MemoryAccess &access : getMemoryAccesses(op)) {
        auto type = dyn_cast<SmemType>(access.buffer.getType());
        if (!type || access.indices.empty() || access.indices.size() > type.getRank())
          continue;
        bool reported = false;
        for (int64_t t = 0; t < model.getNumThreads() && !reported; ++t) {
          if (reach[t].kind != Reach::Always)
            continue;
          for (auto [dim, index] : llvm::enumerate(access.indices)) {
            std::optional<Interval> r = ranges.range(index, t);
            if (!r)
              continue;
            int64_t extent = type.getShape()[dim];
            bool innermost = access.indices.size() == type.getRank() && dim + 1 == type.getRank();
            int64_t last = r->hi + (innermost ? access.width - 1 : 0);
            if (r->lo >= 0 && last < extent)
              continue;
            ok = false;
            InFlightDiagnostic diag = emitFinding(op, "smem.out-of-bounds")
                                      << "expected index " << dim << " in [0, " << extent
                                      << "), but in thread " << t << " it reaches "
                                      << (r->lo < 0 ? r->lo : last)
                                      << (innermost && access.width > 1
                                              ? " (a " + std::to_string(access.width) +
                                                    "-element access)"
                                              : std::string());
            if (Operation *alloc = access.buffer.getDefiningOp())
              diag.attachNote(alloc->getLoc()) << "the buffer " << type << " is allocated here";
            attachFix(diag, op, "smem.out-of-bounds",
                      r->lo < 0 ? "keep the index non-negative (clamp it or add a halo offset)"
                                : "give dimension " + std::to_string(dim) + " of the buffer " +
                                      std::to_string(last + 1) +
                                      " elements, or bound the index below " +
                                      std::to_string(extent));
            reported = true;
            break;
          }
        }
      }
    });
    return ok;
  }

  /// min_blocks_per_sm blocks must fit in an SM's shared memory, each with what the hardware
  /// reserves per block (Targets.def: 164 KiB per SM on sm_80, 228 KiB on sm_90+, 1 KiB each).
  static bool verifyOccupancy(KernelOp kernel, int64_t total) {
    std::optional<int64_t> blocks = kernel.getMinBlocksPerSm();
    const TargetInfo *info = lookupTarget(kernel.getTarget());
    if (!blocks || *blocks < 1 || !info)
      return true;
    int64_t perSm = info->sharedBytesPerSm;
    int64_t reservedPerBlock = perSm - info->maxDynamicSharedBytes;
    int64_t fit = perSm / (total + reservedPerBlock);
    if (fit >= *blocks)
      return true;
    InFlightDiagnostic diag = emitFinding(kernel, "smem.occupancy")
                              << "min_blocks_per_sm = " << *blocks << " blocks of " << total
                              << " bytes of shared memory (+ " << reservedPerBlock
                              << " reserved each) do not fit in the " << perSm << " bytes of an SM on "
                              << kernel.getTarget() << ": " << fit << " fit";
    int64_t most = perSm / *blocks - reservedPerBlock;
    attachFix(diag, kernel, "smem.occupancy",
              "use at most " + std::to_string(most) + " bytes per block, or set min_blocks_per_sm = " +
                  std::to_string(std::max<int64_t>(fit, 1)));
    return false;
  }

  /// The segment (allocations at their alignment + dynamic_smem) against the target's limit.
  static bool verifySize(KernelOp kernel) {
    SharedMemoryLayout layout = kernel.getSharedMemoryLayout();
    int64_t dynamic = kernel.getDynamicSmem();
    int64_t total = layout.totalBytes + dynamic;
    int64_t limit = kernel.getMaxSharedBytes();
    if (total <= limit)
      return verifyOccupancy(kernel, total);

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
        int64_t stages = type.getRank() >= 2 ? type.getShape()[0] : 0;
        // The leading dimension is a stage count only where the kernel walks it as a ring (an
        // index taken mod that count) or a cake.pipeline has that many stages; otherwise cutting
        // it cuts rows off a tile. A ring's slot index must then wrap at the new count too.
        bool ring = false, piped = false;
        if (stages > 1) {
          for (Operation *user : alloc.getBuffer().getUsers())
            for (const MemoryAccess &access : getMemoryAccesses(user)) {
              if (access.buffer != alloc.getBuffer() || access.indices.empty())
                continue;
              Operation *def = access.indices.front().getDefiningOp();
              if (isa_and_nonnull<arith::RemUIOp, arith::RemSIOp>(def) &&
                  getConstantIntValue(def->getOperand(1)) == stages)
                ring = true;
            }
          kernel.walk([&](PipelineCreateOp pipe) {
            piped |= pipe.getPipeline().getType().getStages() == stages;
          });
        }
        if (ring || piped) {
          int64_t stage = type.getSizeInBytes() / stages;
          int64_t drop = (excess + stage - 1) / stage;
          std::string now = std::to_string(stages), less = std::to_string(stages - drop);
          if (drop < stages)
            hint += ": e.g. give the biggest buffer " + less + " instead of " + now +
                    " stages (leading dimension)" +
                    (ring ? ", and take its slot index mod " + less + " instead of mod " + now
                          : std::string()) +
                    (piped ? ", and give its pipeline " + less + " stages" : std::string()) +
                    "; or use smaller tiles";
          else
            hint += ": use smaller tiles";
        } else if (type.getRank() >= 2) {
          hint += ": use smaller tiles (the biggest buffer takes " +
                  std::to_string(type.getSizeInBytes()) + " bytes) or fewer buffers";
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
