//===- Passes.cpp - the cake-verify pass order ----------------------------===//
#include "Cake/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

using namespace mlir;

void mlir::cake::buildVerifyPipeline(OpPassManager &pm) {
  // Cheapest and most basic first: a kernel on the wrong target or over its shared memory needs
  // fixing before its synchronization is worth reading.
  pm.addPass(createCakeVerifyTargetPass());
  pm.addPass(createCakeVerifySmemPass());
  pm.addPass(createCakeVerifyRolesPass());
  pm.addPass(createCakeVerifyMbarrierPass());
  pm.addPass(createCakeVerifyPipelinePass());
}
