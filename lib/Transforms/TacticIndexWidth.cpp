//===- TacticIndexWidth.cpp - tactic: lower index arithmetic at 32 (or 64) bits ===//
//
// Sets `index_bitwidth` on every kernel; the lowering and the manifest read it (a 32-bit kernel's
// manifest bounds the shapes it serves). Refuses ([tactic.not-applicable]) a width other than
// 32 or 64 and a module whose kernels all have it already.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/Passes.h"
#include "Tactics.h"

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
    IRRewriter rewriter(&getContext());
    if (failed(applyIndexWidthTactic(rewriter, getOperation(), bits)))
      signalPassFailure();
  }
};
} // namespace

std::string mlir::cake::indexWidthOptionsError(int64_t bits) {
  if (bits != 32 && bits != 64)
    return "expected bits 32 or 64, got " + std::to_string(bits);
  return "";
}

LogicalResult mlir::cake::applyIndexWidthTactic(RewriterBase &, Operation *root, int64_t bits) {
  if (std::string why = indexWidthOptionsError(bits); !why.empty())
    return reportBadOption(root, "cake-tactic-index-width", why);
  SmallVector<KernelOp> changed;
  root->walk([&](KernelOp kernel) {
    if (int64_t(kernel.getIndexBitwidth().value_or(64)) != bits)
      changed.push_back(kernel);
  });
  if (changed.empty())
    return mlir::emitError(root->getLoc())
           << "[tactic.not-applicable] cake-tactic-index-width: every kernel already lowers index "
              "at "
           << bits << " bits";
  Builder b(root->getContext());
  for (KernelOp kernel : changed) {
    if (bits == 64)
      kernel.removeIndexBitwidthAttr();
    else
      kernel.setIndexBitwidthAttr(b.getI64IntegerAttr(bits));
  }
  return success();
}
