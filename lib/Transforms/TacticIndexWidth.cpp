//===- TacticIndexWidth.cpp - tactic: lower index arithmetic at 32 (or 64) bits ===//
//
// Sets `index_bitwidth` on every kernel; the lowering and the manifest read it (a 32-bit kernel's
// manifest bounds the shapes it serves). Refuses ([tactic.not-applicable]) a width other than
// 32 or 64 and a module whose kernels all have it already.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Transforms/TacticOps.h"

using namespace mlir;
using namespace mlir::cake;

namespace {} // namespace

std::string CakeTacticIndexWidthOp::checkOptions(const Options &options) {
  int64_t bits = options.bits;
  if (bits != 32 && bits != 64)
    return "expected bits 32 or 64, got " + std::to_string(bits);
  return "";
}

LogicalResult CakeTacticIndexWidthOp::applyTactic(RewriterBase &, Operation *root,
                                                  const Options &options) {
  int64_t bits = options.bits;
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
