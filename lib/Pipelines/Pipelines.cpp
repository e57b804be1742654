//===- Pipelines.cpp - named cake pipelines -------------------------------===//
#include "Cake/Pipelines/Pipelines.h"
#include "Cake/Conversion/Passes.h"
#include "Cake/Verify/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::cake;

LogicalResult mlir::cake::buildLowerToNVVMPipeline(OpPassManager &pm,
                                                   const LowerToNVVMOptions &options) {
  CakeConvertToNVVMPassOptions convertOptions;
  convertOptions.chip = options.chip;
  convertOptions.features = options.features;
  convertOptions.optLevel = options.optLevel;
  convertOptions.hangTimeoutMs = options.hangTimeoutMs;
  convertOptions.indexBitwidth = options.indexBitwidth;
  // The one check of what each op needs from its target, so an op the chip lacks is a located
  // target.* finding rather than an error deep in upstream NVVM.
  pm.addPass(createCakeVerifyTargetPass());
  pm.addPass(createCakeConvertToNVVMPass(convertOptions));
  // The upstream half, by name: the registry resolves it, so this file needs none of their
  // (expensive) headers. convert-gpu-to-nvvm gives `index` the width of the gpu.module's data
  // layout, which cake-convert-to-nvvm set.
  return parsePassPipeline("gpu.module(lower-affine, arith-expand, convert-scf-to-cf, "
                           "convert-gpu-to-nvvm, convert-nvvm-to-llvm, canonicalize, cse, "
                           "reconcile-unrealized-casts)",
                           pm);
}

void mlir::cake::registerCakePipelines() {
  PassPipelineRegistration<LowerToNVVMOptions>(
      "cake-lower-to-nvvm",
      "Lower cake kernels to a gpu.module of LLVM-dialect NVVM kernels with an #nvvm.target",
      [](OpPassManager &pm, const LowerToNVVMOptions &options) {
        // Registration cannot fail here; a missing upstream pass shows when the pipeline runs.
        (void)buildLowerToNVVMPipeline(pm, options);
      });
  // `cake-verify` is a pass (CakeVerifyPass: it runs every verifier pass even after one fails).
}
