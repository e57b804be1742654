//===- Passes.h - cake verification passes ----------------------*- C++ -*-===//
#ifndef CAKE_VERIFY_PASSES_H
#define CAKE_VERIFY_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::cake {
#define GEN_PASS_DECL
#include "Cake/Verify/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Cake/Verify/Passes.h.inc"

/// Adds the cake-verify-* passes in the order `cake-verify` runs them.
void buildVerifyPipeline(OpPassManager &pm);
} // namespace mlir::cake

#endif // CAKE_VERIFY_PASSES_H
