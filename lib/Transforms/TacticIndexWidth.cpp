//===- TacticIndexWidth.cpp - tactic: lower index arithmetic at 32 (or 64) bits ===//
//
// Sets `index_bitwidth` on every kernel; the lowering and the manifest read it (a 32-bit kernel's
// manifest bounds the shapes it serves). Refuses ([tactic.not-applicable]) a width other than
// 32 or 64 and a module whose kernels all have it already.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/Passes.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKETACTICINDEXWIDTHPASS
#include "Cake/Transforms/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
struct CakeTacticIndexWidthPass
    : cake::impl::CakeTacticIndexWidthPassBase<CakeTacticIndexWidthPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    if (bits != 32 && bits != 64) {
      mlir::emitError(root->getLoc())
          << "[tactic.not-applicable] cake-tactic-index-width: expected bits 32 or 64, got "
          << bits.getValue();
      return signalPassFailure();
    }
    SmallVector<KernelOp> changed;
    root->walk([&](KernelOp kernel) {
      if (kernel.getIndexBitwidth().value_or(64) != bits)
        changed.push_back(kernel);
    });
    if (changed.empty()) {
      mlir::emitError(root->getLoc()) << "[tactic.not-applicable] cake-tactic-index-width: every "
                                         "kernel already lowers index at "
                                      << bits.getValue() << " bits";
      return signalPassFailure();
    }
    Builder b(&getContext());
    for (KernelOp kernel : changed) {
      if (bits == 64)
        kernel.removeIndexBitwidthAttr();
      else
        kernel.setIndexBitwidthAttr(b.getI64IntegerAttr(bits));
    }
  }
};
} // namespace
