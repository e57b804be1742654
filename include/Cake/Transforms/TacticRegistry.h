//===- TacticRegistry.h - the shipped tactics, for the harness --*- C++ -*-===//
//
// The named tactics the harness tries: each is a cake-tactic-* pass with fixed options and a
// cheap precondition on the ops the IR contains, also written as its transform op (a line of a
// tactic script). Each tactic's record (include/Cake/Transforms/Tactics/*.td) declares its
// presets; `cake-opt --cake-list-tactics` prints them as JSON; the harness reads that instead of
// keeping its own list.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_TRANSFORMS_TACTICREGISTRY_H
#define CAKE_TRANSFORMS_TACTICREGISTRY_H

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::cake {

struct TacticPreset {
  std::string name;     ///< the harness's name, e.g. "tensorize-wgmma-64"
  std::string pass;     ///< the pass flag, e.g. "cake-tactic-tensorize"
  std::string pipeline; ///< what cake-opt runs: builtin.module(pass{options})
  std::string transform; ///< the same as a transform op on the handle %target (transform.cake.*)
  std::vector<std::string> requiresOps, forbidsOps;
};

/// Every shipped tactic, in the order the harness tries them before it has statistics.
const std::vector<TacticPreset> &getTacticPresets();

/// {"version": 1, "tactics": [{"name", "pass", "pipeline", "transform", "requires_ops",
/// "forbids_ops"}], "passes": [{"pass", "transform_op", "summary", "options": [{"name", "type",
/// "default", "description"}]}]}: the presets, then every tactic with its options (in the same
/// order), for an agent that writes its own pipelines or transform scripts.
llvm::json::Value tacticPresetsAsJson();

} // namespace mlir::cake

#endif // CAKE_TRANSFORMS_TACTICREGISTRY_H
