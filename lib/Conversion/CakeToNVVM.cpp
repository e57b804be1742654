//===- CakeToNVVM.cpp - the cake-convert-to-nvvm pass ---------------------===//
#include "Cake/Conversion/CakeToNVVM.h"
#include "Cake/Conversion/Passes.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/Target.h"
#include "ConversionUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTargetMC();
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKECONVERTTONVVMPASS
#include "Cake/Conversion/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

void populateCakeMemoryPatterns(CakeTypeConverter &converter, RewritePatternSet &patterns);
void populateCakeThreadPatterns(CakeTypeConverter &converter, RewritePatternSet &patterns);
void populateCakeHopperPatterns(CakeTypeConverter &converter, RewritePatternSet &patterns);
void populateCakeBlackwellPatterns(CakeTypeConverter &converter, RewritePatternSet &patterns);
void populateCakeAmperePatterns(CakeTypeConverter &converter, RewritePatternSet &patterns);
void populateCakeMathPatterns(CakeTypeConverter &converter, RewritePatternSet &patterns);

CakeTypeConverter::CakeTypeConverter(MLIRContext *context) {
  addConversion([](Type type) { return type; });
  addConversion([context](GlobalTensorType) { return LLVM::LLVMPointerType::get(context, 1); });
  // A TMA descriptor is a generic pointer to the 128-byte tensor map the host placed in memory.
  addConversion([context](TmaType) { return LLVM::LLVMPointerType::get(context); });
  // Shared buffers, mbarrier arrays and pipelines are addresses in shared memory.
  auto shared = [context](Type) { return LLVM::LLVMPointerType::get(context, 3); };
  addConversion([shared](SmemType type) { return shared(type); });
  addConversion([shared](MbarriersType type) { return shared(type); });
  addConversion([shared](PipelineType type) { return shared(type); });
  // A tensor-memory allocation is its address in tensor memory (address space 6).
  addConversion([context](TmemType) { return LLVM::LLVMPointerType::get(context, 6); });
}

void mlir::cake::populateCakeToNVVMPatterns(CakeTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  populateCakeMemoryPatterns(converter, patterns);
  populateCakeThreadPatterns(converter, patterns);
  populateCakeHopperPatterns(converter, patterns);
  populateCakeBlackwellPatterns(converter, patterns);
  populateCakeAmperePatterns(converter, patterns);
  populateCakeMathPatterns(converter, patterns);
}

FailureOr<unsigned> mlir::cake::resolveIndexBitwidth(ModuleOp module, unsigned requested) {
  SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
  if (requested != 0) {
    if (requested == 32 || requested == 64)
      return requested;
    Operation *anchor = kernels.empty() ? module.getOperation() : kernels.front().getOperation();
    return anchor->emitError() << "expected index-bitwidth 32 or 64, got " << requested;
  }
  if (kernels.empty())
    return 64u;
  auto widthOf = [](KernelOp kernel) { return kernel.getIndexBitwidth().value_or(64); };
  for (KernelOp kernel : kernels) {
    if (widthOf(kernel) == widthOf(kernels.front()))
      continue;
    InFlightDiagnostic diag = kernel.emitError()
                              << "kernels of one module must share an index_bitwidth: expected "
                              << widthOf(kernels.front()) << ", got " << widthOf(kernel);
    diag.attachNote(kernels.front().getLoc())
        << "the first kernel's index_bitwidth is " << widthOf(kernels.front());
    return failure();
  }
  return static_cast<unsigned>(widthOf(kernels.front()));
}

unsigned mlir::cake::getLoweredIndexBitwidth(Operation *op) {
  return DataLayout::closest(op).getTypeSizeInBits(IndexType::get(op->getContext()));
}

/// Whether LLVM's NVPTX backend knows the subtarget feature `name` ("ptx86"). One it does not know
/// it ignores with a warning, and the PTX silently gets the chip's default version.
static bool nvptxKnowsFeature(StringRef chip, StringRef name) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTargetMC();
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target ? target->createMCSubtargetInfo(triple, chip, "") : nullptr);
  if (!info)
    return true; // cannot tell here: the backend decides
  return llvm::any_of(info->getAllProcessorFeatures(),
                      [&](const llvm::SubtargetFeatureKV &feature) { return name == feature.Key; });
}

LogicalResult mlir::cake::verifyPtxFeatures(StringRef chip, StringRef features, Operation *anchor) {
  if (features.empty())
    return success();
  const TargetInfo *info = lookupTarget(chip);
  unsigned floor = info ? info->ptxVersion : 80;
  SmallVector<StringRef> items;
  features.split(items, ',');
  for (StringRef item : items) {
    unsigned version = 0;
    if (!item.consume_front("+ptx") || item.getAsInteger(10, version) || version < floor)
      return anchor->emitError() << "unsupported features '" << features << "' for " << chip
                                 << ": expected +ptxNN with NN >= " << floor;
    if (!nvptxKnowsFeature(chip, ("ptx" + item).str()))
      return anchor->emitError() << "unsupported features '" << features << "' for " << chip
                                 << ": this LLVM's NVPTX backend knows no PTX ISA " << version / 10
                                 << "." << version % 10;
  }
  return success();
}

namespace {
struct CakeConvertToNVVMPass
    : public mlir::cake::impl::CakeConvertToNVVMPassBase<CakeConvertToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
    if (kernels.empty())
      return;

    // One gpu.module, one chip: every kernel of the module must agree on the target.
    KernelOp first = kernels.front();
    StringRef target = first.getTarget();
    bool mismatch = false;
    for (KernelOp kernel : kernels) {
      if (kernel.getTarget() == target)
        continue;
      InFlightDiagnostic diag = kernel.emitError()
                                << "kernels of one module must share a target: expected '" << target
                                << "', got '" << kernel.getTarget() << "'";
      diag.attachNote(first.getLoc()) << "the first kernel's target is set here";
      mismatch = true;
    }
    if (mismatch)
      return signalPassFailure();

    std::string chipName = chip.empty() ? target.str() : chip.getValue();
    if (!isKnownTarget(chipName)) {
      first.emitError() << "unknown chip '" << chipName << "', expected one of "
                        << joinTargetsWith(0);
      return signalPassFailure();
    }
    if (failed(verifyPtxFeatures(chipName, features, first)))
      return signalPassFailure();
    std::string featureList = !features.empty()
                                  ? features.getValue()
                                  : "+ptx" + std::to_string(lookupTarget(chipName)->ptxVersion);
    if (optLevel.getValue() > 3) {
      first.emitError() << "expected opt-level 0 to 3, got " << optLevel.getValue();
      return signalPassFailure();
    }
    FailureOr<unsigned> width = resolveIndexBitwidth(module, indexBitwidth);
    if (failed(width))
      return signalPassFailure();

    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(module.getBody());
    auto targetAttr = NVVM::NVVMTargetAttr::get(module.getContext(), optLevel,
                                                "nvptx64-nvidia-cuda", chipName, featureList);
    auto gpuModule =
        gpu::GPUModuleOp::create(b, module.getLoc(), "cake_kernels", b.getArrayAttr({targetAttr}));
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), b.getUnitAttr());
    // The width as the data layout says it: convert-gpu-to-nvvm (index-bitwidth unset) and the
    // patterns read it from there.
    if (*width != 64)
      gpuModule->setAttr(DLTIDialect::kDataLayoutAttrName,
                         DataLayoutSpecAttr::get(
                             &getContext(), {DataLayoutEntryAttr::get(
                                                b.getIndexType(), b.getI64IntegerAttr(*width))}));

    // The extern shared array all allocations index (dynamic shared memory).
    LLVM::GlobalOp::create(b, module.getLoc(), LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                           /*isConstant=*/false, LLVM::Linkage::External, kSharedSegmentName,
                           Attribute(), /*alignment=*/1024, /*addrSpace=*/3)
        ->moveBefore(&gpuModule.getBodyRegion().front(), gpuModule.getBodyRegion().front().end());

    if (hangTimeoutMs > 0) {
      for (auto [id, site] : llvm::enumerate(collectHangSites(module)))
        site->setAttr(kHangSiteAttrName,
                      b.getDenseI64ArrayAttr({static_cast<int64_t>(id), hangTimeoutMs}));
      OpBuilder globals = OpBuilder::atBlockEnd(&gpuModule.getBodyRegion().front());
      addHangDebugGlobals(globals, module.getLoc());
    }

    for (KernelOp kernel : kernels)
      if (failed(convertKernelToGPUFunc(kernel, gpuModule)))
        return signalPassFailure();

    // Vector ops the upstream conversion to LLVM only takes in another form: 1-D strided
    // slices (extract/insert_strided_slice) become shuffles.
    // Only where they occur, and nothing else rewritten (no folding, no region simplification):
    // every other kernel's IR stays as it was.
    bool strided = false;
    gpuModule.walk([&](Operation *op) {
      strided |= isa<vector::ExtractStridedSliceOp, vector::InsertStridedSliceOp>(op);
    });
    if (strided) {
      RewritePatternSet vectorPatterns(&getContext());
      vector::populateVectorInsertExtractStridedSliceTransforms(vectorPatterns);
      GreedyRewriteConfig config;
      config.enableFolding(false).enableConstantCSE(false).setRegionSimplificationLevel(
          GreedySimplifyRegionLevel::Disabled);
      if (failed(applyPatternsGreedily(gpuModule, std::move(vectorPatterns), config)))
        return signalPassFailure();
    }

    CakeTypeConverter converter(&getContext());
    RewritePatternSet patterns(&getContext());
    populateCakeToNVVMPatterns(converter, patterns);
    ConversionTarget conversionTarget(getContext());
    conversionTarget.addIllegalDialect<CakeDialect>();
    conversionTarget.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    conversionTarget.addDynamicallyLegalOp<math::Exp2Op>(
        [](math::Exp2Op op) { return !isApproxExp2(op); });
    if (failed(applyPartialConversion(gpuModule, conversionTarget, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
