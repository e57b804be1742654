//===- IRJson.h - a structured (JSON) view of IR ---------------*- C++ -*-===//
//
// For tools that read IR without parsing MLIR's text (the harness, agents, scripts): every op
// with its name, location, operands, results (with types), attributes (printed) and regions, as
// JSON. Printed by `cake-opt --cake-print-ir-json`, returned by the C API (cakeModuleToJson) and
// by the Python bindings (Module.to_json / Module.walk).
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_ANALYSIS_IRJSON_H
#define CAKE_ANALYSIS_IRJSON_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/JSON.h"

namespace mlir::cake {

/// The schema of the view: {"schema": "cake-ir", "version": 1, "ops": [op...]} with each op
/// {"name", "loc": {"file", "line", "col"} | null, "operands": ["%N"...],
///  "results": [{"id": "%N", "type"}...], "attributes": {name: printed value},
///  "regions": [[{"arguments": [{"id", "type"}...], "ops": [op...]}...]...]}.
/// Values are numbered in the order they are defined, from %0, over the whole view.
inline constexpr int64_t kIRJsonVersion = 1;

/// The ops of `root`'s regions (for a module: its top-level ops) in the view above.
llvm::json::Value getIRAsJson(Operation *root);

} // namespace mlir::cake

#endif // CAKE_ANALYSIS_IRJSON_H
