//===- TacticOps.h - the tactics: their transform ops and rewrites ---*- C++ -*-===//
//
// transform.cake.<tactic>: one op class per tactic (CakeTactic<Name>Op, from its record under
// include/Cake/Transforms/Tactics/), injected into the Transform dialect by the extension that
// registerTacticTransformOps adds to a registry. Each op class also carries what its pass and the
// harness's registry use: `Options` (the pass's option struct), `applyTactic` and
// `checkOptions` (written in the record, or in lib/Transforms/Tactic<Name>.cpp), `passArgument`, `searchRank`
// and `appendPresets`.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_TRANSFORMS_TACTICOPS_H
#define CAKE_TRANSFORMS_TACTICOPS_H

#include "Cake/Transforms/Passes.h"
#include "Cake/Transforms/TacticRegistry.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"

#include <string>
#include <vector>

#define GET_OP_CLASSES
#include "Cake/Transforms/TacticOps.h.inc"

namespace mlir {
class DialectRegistry;

namespace cake {
void registerTacticTransformOps(DialectRegistry &registry);
} // namespace cake
} // namespace mlir

#endif // CAKE_TRANSFORMS_TACTICOPS_H
