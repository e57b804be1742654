//===- Passes.cpp - cake-verify: every verifier pass, then the loaded rules -===//
#include "Cake/Verify/Passes.h"
#include "Cake/Verify/Rules.h"

#include "mlir/Pass/PassManager.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYPASS
#include "Cake/Verify/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
/// The built-in passes in the order cake-verify runs them. Cheapest and most basic first: a kernel
/// on the wrong target or over its shared memory is worth fixing before its synchronization.
std::vector<std::function<std::unique_ptr<Pass>()>> getVerifierPasses() {
  return {[] { return createCakeVerifyTargetPass(); },
          [] { return createCakeVerifySmemPass(); },
          [] { return createCakeVerifyRolesPass(); },
          [] { return createCakeVerifyShapesPass(); },
          [] { return createCakeVerifyClusterPass(); },
          [] { return createCakeVerifyMbarrierPass(); },
          [] { return createCakeVerifyPipelinePass(); },
          [] { return createCakeVerifyAsyncPass(); },
          [] { return createCakeVerifyWgmmaPass(); },
          [] { return createCakeVerifyTmemPass(); },
          [] { return createCakeVerifyTmaPass(); },
          [] { return createCakeVerifyRacesPass(); },
          [] { return createCakeVerifyDeadlockPass(); }};
}

struct CakeVerifyPass : cake::impl::CakeVerifyPassBase<CakeVerifyPass> {
  using Base::Base;

  void runOnOperation() override {
    // Each pass in its own dynamic pipeline: a pass with findings fails only its own pipeline,
    // so the next pass still runs and one run reports every finding.
    // The pipelines live until the end: --mlir-timing keys its timers by pass and pipeline
    // address, so a pass allocated where a finished one was would report under that one's name.
    bool anyFailed = false;
    std::vector<std::unique_ptr<OpPassManager>> pipelines;
    auto runEach = [&](const std::vector<std::function<std::unique_ptr<Pass>()>> &passes) {
      for (const auto &create : passes) {
        OpPassManager &pm = *pipelines.emplace_back(std::make_unique<OpPassManager>());
        pm.addPass(create());
        anyFailed |= failed(runPipeline(pm, getOperation()));
      }
    };
    // First what the other checks rely on: only modelled ops, and the task's interface.
    std::vector<std::function<std::unique_ptr<Pass>()>> first = {[&] {
      CakeVerifyOpsPassOptions options;
      options.allow.assign(allow.begin(), allow.end());
      return createCakeVerifyOpsPass(options);
    }};
    if (!interface.empty())
      first.push_back([&] {
        return createCakeVerifyInterfacePass(CakeVerifyInterfacePassOptions{interface});
      });
    runEach(first);
    runEach(getVerifierPasses());
    runEach(getLoadedRulePasses());
    if (anyFailed)
      signalPassFailure();
  }
};
} // namespace

void mlir::cake::buildVerifyPipeline(OpPassManager &pm) { pm.addPass(createCakeVerifyPass()); }
