//===- TacticOps.h - the tactics as Transform-dialect ops -------*- C++ -*-===//
//
// transform.cake.<tactic>: one transform op per cake-tactic-* pass (TacticOps.td), injected into
// the Transform dialect by the extension that registerTacticTransformOps adds to a registry.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_TRANSFORMS_TACTICOPS_H
#define CAKE_TRANSFORMS_TACTICOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "Cake/Transforms/TacticOps.h.inc"

namespace mlir {
class DialectRegistry;

namespace cake {
/// Adds the extension that injects the transform.cake.* tactic ops into the Transform dialect
/// (applied when a context loads that dialect).
void registerTacticTransformOps(DialectRegistry &registry);
} // namespace cake
} // namespace mlir

#endif // CAKE_TRANSFORMS_TACTICOPS_H
