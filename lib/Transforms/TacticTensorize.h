//===- TacticTensorize.h - cake-tactic-tensorize's match and rewrite -*- C++ -*-===//
//
// The pass (TacticTensorize.cpp) matches the naive warp dot-product reduction and checks its
// preconditions; the rewrite (TacticTensorizeRewrite.cpp) puts it on mma.sync or wgmma.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_LIB_TRANSFORMS_TACTICTENSORIZE_H
#define CAKE_LIB_TRANSFORMS_TACTICTENSORIZE_H

#include "Cake/IR/CakeOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::cake::tensorize {

/// The matched reduction.
struct Site {
  scf::ForOp rows; // L1: `for %k = %lane to %K step 32`
  scf::ForOp dot;  // L2: `for %j = 0 to D`
  LoadOp aLoad, bLoad;
  Value row;
  int64_t depth = 0; // D
  SmallVector<Operation *> tail;
};

/// The pass options, checked by the pass.
struct Options {
  int64_t tile, rows, buffers, unroll;
  bool prefetch, fastpath, warpgroup; // warpgroup: mma = wgmma
};

/// Rewrites the kernel of `site` (see the file comment of TacticTensorize.cpp); the matched loop
/// and tail are erased through `rewriter`.
void rewrite(RewriterBase &rewriter, KernelOp kernel, Site &site, const Options &options);

} // namespace mlir::cake::tensorize

#endif // CAKE_LIB_TRANSFORMS_TACTICTENSORIZE_H
