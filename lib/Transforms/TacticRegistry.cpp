//===- TacticRegistry.cpp - the shipped tactics ----------------------------===//
#include "Cake/Transforms/TacticRegistry.h"

using namespace mlir::cake;

namespace {
TacticPreset preset(std::string name, std::string pass, std::string options,
                    std::vector<std::string> needed, std::vector<std::string> forbidden = {}) {
  std::string pipeline = "builtin.module(" + pass + (options.empty() ? "" : "{" + options + "}") + ")";
  return {std::move(name), std::move(pass), std::move(pipeline), std::move(needed),
          std::move(forbidden)};
}
} // namespace

const std::vector<TacticPreset> &mlir::cake::getTacticPresets() {
  static const std::vector<TacticPreset> presets = [] {
    std::vector<TacticPreset> out;
    for (int n : {2, 3, 4, 5, 6})
      out.push_back(preset("pipeline-stages-" + std::to_string(n), "cake-tactic-pipeline-stages",
                           "stages=" + std::to_string(n), {"cake.pipeline.create"}));
    for (int n : {1, 2, 4, 8})
      out.push_back(preset("pad-" + std::to_string(n), "cake-tactic-pad",
                           "elements=" + std::to_string(n), {"cake.alloc_smem"}));
    for (int n : {32, 64, 128})
      out.push_back(preset("swizzle-" + std::to_string(n), "cake-tactic-swizzle",
                           "bytes=" + std::to_string(n), {"cake.alloc_smem"}));
    out.push_back(preset("stage-rows", "cake-tactic-stage-rows", "", {"cake.lane_id", "scf.for"}));
    for (int n : {2, 4, 8})
      out.push_back(preset("vectorize-" + std::to_string(n), "cake-tactic-vectorize",
                           "width=" + std::to_string(n), {"cake.load", "scf.for"}));
    const std::vector<std::string> reduction = {"cake.lane_id", "scf.for", "arith.extf"};
    const std::vector<std::string> tensorCore = {"cake.mma_sync", "cake.wgmma"};
    for (int n : {32, 64, 128})
      out.push_back(preset("tensorize-" + std::to_string(n), "cake-tactic-tensorize",
                           "tile=" + std::to_string(n) + " rows=16", reduction, tensorCore));
    for (int n : {32, 64})
      out.push_back(preset("tensorize-r32-" + std::to_string(n), "cake-tactic-tensorize",
                           "tile=" + std::to_string(n) + " rows=32", reduction, tensorCore));
    // The warpgroup form (sm_90a): the pass refuses other targets and partial warpgroups.
    for (int n : {64, 128})
      out.push_back(preset("tensorize-wgmma-" + std::to_string(n), "cake-tactic-tensorize",
                           "tile=" + std::to_string(n) + " mma=wgmma", reduction, tensorCore));
    out.push_back(preset("contract", "cake-tactic-contract", "", {"arith.mulf"}));
    // Any kernel that reads or writes global memory computes addresses.
    out.push_back(preset("index-32", "cake-tactic-index-width", "bits=32", {"cake.load"}));
    out.push_back(preset("programmatic-launch", "cake-tactic-programmatic-launch", "", {},
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
                                        {"requires_ops", std::move(needed)},
                                        {"forbids_ops", std::move(forbidden)}});
  }
  return llvm::json::Object{{"version", 1}, {"tactics", std::move(tactics)}};
}
