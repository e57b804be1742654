//===- VerifyTma.cpp - TMA copies against the kernel ----------------------===//
//
// Multicast masks against the cluster size, and the stride at which a loop walks a TMA coordinate
// against the box (a stride below the box copies overlapping tiles: usually a tile size that does
// not match the descriptor). Transaction bytes are cake-verify-mbarrier's and -pipeline's.
//
//===----------------------------------------------------------------------===//
#include "PathSimulation.h"

#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/Findings.h"
#include "Cake/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYTMAPASS
#include "Cake/Transforms/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {

/// How much `v` advances per iteration of `loop`: 0 when loop-invariant; the step (times
/// constants) for the induction variable through addi / subi / muli by constants; else unknown.
std::optional<int64_t> getStride(Value v, scf::ForOp loop, unsigned depth = 0) {
  if (depth > 32)
    return std::nullopt;
  if (v == loop.getInductionVar())
    return getConstantIntValue(loop.getStep());
  if (!loop->isAncestor(v.getParentRegion()->getParentOp()))
    return 0; // defined outside the loop
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt; // an iteration argument
  if (getConstantIntValue(v))
    return 0;
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    std::optional<int64_t> a = getStride(def->getOperand(0), loop, depth + 1);
    std::optional<int64_t> b = getStride(def->getOperand(1), loop, depth + 1);
    if (!a || !b)
      return std::nullopt;
    return isa<arith::AddIOp>(def) ? *a + *b : *a - *b;
  }
  if (isa<arith::MulIOp>(def)) {
    for (unsigned i = 0; i < 2; ++i)
      if (std::optional<int64_t> c = getConstantIntValue(def->getOperand(i)))
        if (std::optional<int64_t> s = getStride(def->getOperand(1 - i), loop, depth + 1))
          return *c * *s;
    return std::nullopt;
  }
  return std::nullopt;
}

/// Warns about each coordinate of `op` that an enclosing scf.for advances by less than the box.
bool checkStrides(Operation *op, TmaType tma, ValueRange coords) {
  ArrayRef<int64_t> box = tma.getBox();
  for (auto [dim, coord] : llvm::enumerate(coords)) {
    if (dim >= box.size())
      break;
    for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
         loop = loop->getParentOfType<scf::ForOp>()) {
      std::optional<int64_t> stride = getStride(coord, loop);
      if (!stride || *stride == 0 || std::abs(*stride) >= box[dim])
        continue;
      InFlightDiagnostic diag = emitFindingWarning(op, "tma.coord-stride")
                                << "coordinate " << dim << " advances by " << *stride
                                << " per iteration, less than the box's " << box[dim]
                                << ": consecutive iterations copy overlapping tiles";
      diag.attachNote(loop.getLoc()) << "the loop is here";
      attachFix(diag, op, "tma.coord-stride",
                "advance the coordinate by the box extent " + std::to_string(box[dim]) +
                    " per iteration (tile size = box), or shrink the box to the tile");
      break; // one warning per coordinate
    }
  }
  return true;
}

struct CakeVerifyTmaPass : cake::impl::CakeVerifyTmaPassBase<CakeVerifyTmaPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation()->walk([&](KernelOp kernel) {
      int64_t clusterSize = 1;
      for (int64_t d : kernel.getClusterDims())
        clusterSize *= d;
      kernel.walk([&](Operation *op) {
        if (auto load = dyn_cast<TmaLoadOp>(op)) {
          if (Value mask = load.getMulticast()) {
            std::optional<int64_t> m = getConstantIntValue(mask);
            // Ranks [0, clusterSize) exist; the mask is 16 bits wide.
            uint64_t valid = clusterSize >= 16 ? 0xffff : ((uint64_t{1} << clusterSize) - 1);
            if (m && (*m == 0 || (static_cast<uint64_t>(*m) & ~valid) != 0)) {
              ok = false;
              InFlightDiagnostic diag = emitFinding(op, "tma.multicast-mask")
                                        << "expected a multicast mask of the cluster's "
                                        << clusterSize << " block ranks (a nonzero subset of 0x"
                                        << llvm::utohexstr(valid) << "), got 0x"
                                        << llvm::utohexstr(static_cast<uint64_t>(*m));
              if (Operation *def = mask.getDefiningOp())
                diag.attachNote(def->getLoc()) << "the mask is defined here";
              attachFix(diag, op, "tma.multicast-mask",
                        "set the mask to a nonzero subset of 0x" + llvm::utohexstr(valid) +
                            " (bit r = block rank r of the cluster), or enlarge the cluster");
            }
          }
          checkStrides(op, load.getDescriptor().getType(), load.getCoords());
        } else if (auto store = dyn_cast<TmaStoreOp>(op)) {
          checkStrides(op, store.getDescriptor().getType(), store.getCoords());
        }
      });
      // The store groups' lifetimes along each thread's path.
      ThreadModel model(kernel);
      ok &= verifyAsyncAccesses(kernel, model);
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
