//===- TacticRegistry.cpp - the shipped tactics ----------------------------===//
#include "Cake/Transforms/TacticRegistry.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstring>
#include <variant>

using namespace mlir::cake;

namespace {
/// One option of a preset: an integer or a string (tensorize's `mma`).
struct PresetOption {
  std::string key;
  std::variant<int64_t, std::string> value;
};
using PresetOptions = std::vector<PresetOption>;

/// The pass and the transform op of a preset, both written from its options: the pipeline
/// `builtin.module(cake-tactic-pad{elements=4})` and the op
/// `transform.cake.pad %target {elements = 4 : i64} : !transform.any_op` (TacticOps.td: the op's
/// name is the pass's without `cake-tactic-`, `_` for `-`; its attributes are the options).
TacticPreset preset(std::string name, std::string pass, const PresetOptions &options,
                    std::vector<std::string> needed, std::vector<std::string> forbidden = {}) {
  std::string passOptions, attributes;
  for (const PresetOption &option : options) {
    const std::string *text = std::get_if<std::string>(&option.value);
    std::string number = text ? "" : std::to_string(std::get<int64_t>(option.value));
    passOptions += (passOptions.empty() ? "" : " ") + option.key + "=" + (text ? *text : number);
    attributes += (attributes.empty() ? "" : ", ") + option.key + " = " +
                  (text ? "\"" + *text + "\"" : number + " : i64");
  }
  std::string pipeline =
      "builtin.module(" + pass + (passOptions.empty() ? "" : "{" + passOptions + "}") + ")";
  std::string op = llvm::StringRef(pass).drop_front(strlen("cake-tactic-")).str();
  std::replace(op.begin(), op.end(), '-', '_');
  std::string transform = "transform.cake." + op + " %target" +
                          (attributes.empty() ? "" : " {" + attributes + "}") +
                          " : !transform.any_op";
  return {std::move(name),   std::move(pass),   std::move(pipeline),
          std::move(transform), std::move(needed), std::move(forbidden)};
}
} // namespace

const std::vector<TacticPreset> &mlir::cake::getTacticPresets() {
  static const std::vector<TacticPreset> presets = [] {
    std::vector<TacticPreset> out;
    for (int n : {2, 3, 4, 5, 6})
      out.push_back(preset("pipeline-stages-" + std::to_string(n), "cake-tactic-pipeline-stages",
                           {{"stages", n}}, {"cake.pipeline.create"}));
    for (int n : {1, 2, 4, 8})
      out.push_back(preset("pad-" + std::to_string(n), "cake-tactic-pad", {{"elements", n}},
                           {"cake.alloc_smem"}));
    for (int n : {32, 64, 128})
      out.push_back(preset("swizzle-" + std::to_string(n), "cake-tactic-swizzle", {{"bytes", n}},
                           {"cake.alloc_smem"}));
    out.push_back(preset("stage-rows", "cake-tactic-stage-rows", {}, {"cake.lane_id", "scf.for"}));
    for (int n : {2, 4, 8})
      out.push_back(preset("vectorize-" + std::to_string(n), "cake-tactic-vectorize",
                           {{"width", n}}, {"cake.load", "scf.for"}));
    const std::vector<std::string> reduction = {"cake.lane_id", "scf.for", "arith.extf"};
    const std::vector<std::string> tensorCore = {"cake.mma_sync", "cake.wgmma"};
    for (int n : {32, 64, 128})
      out.push_back(preset("tensorize-" + std::to_string(n), "cake-tactic-tensorize",
                           {{"tile", n}, {"rows", 16}}, reduction, tensorCore));
    for (int n : {32, 64})
      out.push_back(preset("tensorize-r32-" + std::to_string(n), "cake-tactic-tensorize",
                           {{"tile", n}, {"rows", 32}}, reduction, tensorCore));
    // The warpgroup form (sm_90a): the pass refuses other targets and partial warpgroups.
    for (int n : {64, 128})
      out.push_back(preset("tensorize-wgmma-" + std::to_string(n), "cake-tactic-tensorize",
                           {{"tile", n}, {"mma", "wgmma"}}, reduction, tensorCore));
    out.push_back(preset("contract", "cake-tactic-contract", {}, {"arith.mulf"}));
    // Any kernel that reads or writes global memory computes addresses.
    out.push_back(preset("index-32", "cake-tactic-index-width", {{"bits", 32}}, {"cake.load"}));
    out.push_back(preset("programmatic-launch", "cake-tactic-programmatic-launch", {}, {},
                         {"cake.grid_dependency.wait"}));
    return out;
  }();
  return presets;
}

llvm::json::Value mlir::cake::tacticPresetsAsJson() {
  llvm::json::Array tactics;
  for (const TacticPreset &t : getTacticPresets()) {
    llvm::json::Array needed(t.requiresOps), forbidden(t.forbidsOps);
    tactics.push_back(llvm::json::Object{{"name", t.name},
                                        {"pass", t.pass},
                                        {"pipeline", t.pipeline},
                                        {"transform", t.transform},
                                        {"requires_ops", std::move(needed)},
                                        {"forbids_ops", std::move(forbidden)}});
  }
  return llvm::json::Object{{"version", 1}, {"tactics", std::move(tactics)}};
}
