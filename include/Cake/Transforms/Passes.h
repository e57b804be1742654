//===- Passes.h - cake tactics ----------------------------------*- C++ -*-===//
#ifndef CAKE_TRANSFORMS_PASSES_H
#define CAKE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::cake {
#define GEN_PASS_DECL
#include "Cake/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Cake/Transforms/Passes.h.inc"
} // namespace mlir::cake

#endif // CAKE_TRANSFORMS_PASSES_H
