//===- Compile.cpp - cake IR to PTX and cubin in one call -----------------===//
#include "Cake/Pipelines/Compile.h"
#include "Cake/Pipelines/Manifest.h"
#include "Cake/Conversion/CakeToNVVM.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/Target.h"
#include "Cake/Pipelines/Pipelines.h"
#include "Cake/Pipelines/Serialize.h"
#include "Cake/Verify/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::cake;

LogicalResult mlir::cake::retargetKernels(ModuleOp module, StringRef chip) {
  SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
  if (chip.empty() || kernels.empty())
    return success();
  if (!isKnownTarget(chip))
    return kernels.front().emitError()
           << "unknown chip '" << chip << "', expected one of " << joinTargetsWith(0);
  Builder b(module.getContext());
  for (KernelOp kernel : kernels)
    kernel.setTargetAttr(b.getStringAttr(chip));
  PassManager pm(module.getContext());
  pm.addPass(createCakeVerifyTargetPass());
  return pm.run(module);
}

LogicalResult mlir::cake::specializeKernels(ModuleOp module, StringRef sizes) {
  SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
  if (sizes.empty() || kernels.empty())
    return success();
  SmallVector<StringRef> entries;
  sizes.split(entries, ',');
  for (StringRef entry : entries) {
    auto [name, text] = entry.split('=');
    name = name.trim();
    int64_t value;
    if (name.empty() || text.trim().getAsInteger(10, value) || value < 0)
      return kernels.front().emitError()
             << "--specialize expects SYMBOL=SIZE[,SYMBOL=SIZE...] with non-negative sizes, got '"
             << entry << "'";
    bool declared = false;
    for (KernelOp kernel : kernels) {
      if (!kernel.getSymbolIndex(name))
        continue;
      declared = true;
      NamedAttrList fixed(kernel.getSpecialize().value_or(DictionaryAttr()));
      fixed.set(name, IntegerAttr::get(IntegerType::get(module.getContext(), 64), value));
      kernel.setSpecializeAttr(fixed.getDictionary(module.getContext()));
    }
    if (!declared)
      return kernels.front().emitError()
             << "--specialize names '" << name << "', which no kernel of the module declares";
  }
  return success();
}

LogicalResult mlir::cake::lowerForSerialization(ModuleOp module, const CompileOptions &options) {
  if (module.getOps<KernelOp>().empty()) {
    if (module.getOps<gpu::GPUModuleOp>().empty())
      return module.emitError("no cake.kernel and no gpu.module in the module");
    return success();
  }
  // cake-convert-to-nvvm checks the chip and features.
  PassManager pm(module.getContext());
  LowerToNVVMOptions pipelineOptions;
  pipelineOptions.chip = options.chip;
  pipelineOptions.features = options.features;
  pipelineOptions.optLevel = options.optLevel;
  pipelineOptions.hangTimeoutMs = options.hangTimeoutMs;
  pipelineOptions.indexBitwidth = options.indexBitwidth;
  if (failed(buildLowerToNVVMPipeline(pm, pipelineOptions)))
    return module.emitError("cannot build the cake-lower-to-nvvm pipeline: a pass it needs is "
                            "not registered");
  if (failed(pm.run(module)))
    return failure();
  return checkFullyLowered(module);
}

LogicalResult mlir::cake::checkFullyLowered(ModuleOp module) {
  // An op the conversions left alone would fail in the LLVM IR translation with a message about
  // dialect registration; name it here, at its own location, instead.
  Operation *left = nullptr;
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    gpuModule.walk([&](Operation *op) {
      StringRef dialect = op->getName().getDialectNamespace();
      if (!left && dialect != "llvm" && dialect != "nvvm" && dialect != "gpu" &&
          dialect != "builtin")
        left = op;
    });
  if (!left)
    return success();
  return left->emitError() << "'" << left->getName()
                           << "' has no lowering to NVVM: express it with the ops the CAKE "
                              "lowering supports (docs/reference; for a 1-D vector, "
                              "vector.shuffle, vector.extract and vector.from_elements)";
}

FailureOr<CompiledKernels> mlir::cake::serializeKernels(ModuleOp lowered,
                                                        const CompileOptions &options) {
  // Lowered input may come from elsewhere (or from a pipeline given its own features).
  for (auto gpuModule : lowered.getOps<gpu::GPUModuleOp>())
    if (ArrayAttr targets = gpuModule.getTargetsAttr())
      for (Attribute target : targets)
        if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target))
          if (failed(verifyPtxFeatures(nvvm.getChip(), nvvm.getFeatures(), gpuModule)))
            return failure();
  CompiledKernels result;
  FailureOr<std::string> ptx = emitPTX(lowered);
  if (failed(ptx))
    return failure();
  result.ptx = std::move(*ptx);
  if (!options.assemble)
    return result;

  FailureOr<std::string> chip = getLoweredChip(lowered);
  if (failed(chip))
    return failure();
  std::string ptxas = findPtxas(options.ptxasPath);
  if (ptxas.empty()) {
    if (!options.ptxasPath.empty())
      return lowered.emitError("ptxas not found or not executable: ") << options.ptxasPath;
    return lowered.emitError("ptxas not found (needed for a cubin): set CUDA_HOME to the CUDA "
                             "toolkit or give its path (--ptxas=PATH, ptxas_path=)");
  }
  FailureOr<std::string> cubin = assembleCubin(result.ptx, *chip, ptxas, result.ptxasReport);
  if (failed(cubin))
    return lowered.emitError("ptxas failed for ") << *chip << ":\n" << result.ptxasReport;
  result.cubin = std::move(*cubin);
  return result;
}

FailureOr<CompileOutput> mlir::cake::compile(ModuleOp module, const CompileOptions &options,
                                             CompileStage last) {
  CompileOutput output;
  // The chip first: the manifest, the checks and the lowering all see the one target.
  if (failed(retargetKernels(module, options.chip)) ||
      failed(specializeKernels(module, options.specialize)))
    return failure();
  FailureOr<unsigned> indexBitwidth = resolveIndexBitwidth(module, options.indexBitwidth);
  if (failed(indexBitwidth))
    return failure();
  if (last == CompileStage::Manifest || options.requireManifest ||
      !module.getOps<KernelOp>().empty()) {
    FailureOr<std::string> manifest = buildManifest(module, options.hangTimeoutMs, *indexBitwidth);
    if (failed(manifest))
      return failure();
    output.manifest = std::move(*manifest);
  }
  if (last == CompileStage::Manifest)
    return output;
  if (failed(lowerForSerialization(module, options)))
    return failure();
  if (last == CompileStage::LLVMIR) {
    llvm::raw_string_ostream os(output.llvmIR);
    if (failed(emitLLVMIR(module, os)))
      return failure();
    return output;
  }
  CompileOptions serialize = options;
  serialize.assemble = last == CompileStage::Cubin;
  FailureOr<CompiledKernels> kernels = serializeKernels(module, serialize);
  if (failed(kernels))
    return failure();
  output.kernels = std::move(*kernels);
  return output;
}
