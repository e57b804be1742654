//===- Passes.h - cake analysis passes --------------------------*- C++ -*-===//
#ifndef CAKE_ANALYSIS_PASSES_H
#define CAKE_ANALYSIS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace mlir::cake {
#define GEN_PASS_DECL
#include "Cake/Analysis/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Cake/Analysis/Passes.h.inc"
} // namespace mlir::cake

#endif // CAKE_ANALYSIS_PASSES_H
