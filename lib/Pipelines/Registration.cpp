//===- Registration.cpp - what a CAKE host registers ----------------------===//
//
// The one translation unit that includes the (expensive) InitAll* headers.
//
//===----------------------------------------------------------------------===//
#include "Cake/Pipelines/Registration.h"
#include "Cake/Analysis/Passes.h"
#include "Cake/Conversion/Passes.h"
#include "Cake/IR/CakeDialect.h"
#include "Cake/Pipelines/Pipelines.h"
#include "Cake/Transforms/Passes.h"
#include "Cake/Transforms/TacticOps.h"
#include "Cake/Verify/Passes.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

using namespace mlir;

void cake::registerCakeDialect(DialectRegistry &registry) {
  registry.insert<CakeDialect>();
  // The tactics as transform ops (transform.cake.*): a host that can parse cake IR can also run
  // tactic scripts on it with the transform interpreter.
  registry.insert<transform::TransformDialect>();
  registerTacticTransformOps(registry);
}

void cake::registerAllDialects(DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerCakeDialect(registry);
}

void cake::registerCakePasses() {
  // Pipeline registration aborts when repeated; hosts may call this more than once.
  static bool registered = [] {
    registerCakeAnalysisPasses();
    registerCakeConversionPasses();
    registerCakeTransformsPasses();
    registerCakeVerifyPasses();
    registerCakePipelines();
    // What runs tactic scripts (--transform-interpreter, --transform-preload-library), for hosts
    // that register the cake passes alone; registering a pass twice is allowed.
    transform::registerInterpreterPass();
    transform::registerPreloadLibraryPass();
    return true;
  }();
  (void)registered;
}

void cake::registerAllPasses() {
  static bool registered = [] {
    mlir::registerAllPasses();
    return true;
  }();
  (void)registered;
  registerCakePasses();
}
