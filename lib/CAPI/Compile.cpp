//===- Compile.cpp - C API: parse, verify, run pipelines, compile ---------===//
#include "Cake-c/Compile.h"
#include "DiagnosticCollector.h"

#include "Cake/IR/CakeOps.h"
#include "Cake/IR/ParseGuard.h"
#include "Cake/Pipelines/Compile.h"
#include "Cake/Pipelines/Manifest.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::cake;
using capi::CollectDiagnostics;

namespace {
/// What a CakeCompileResult points to.
struct CompileResultStorage {
  CompiledKernels kernels;
  std::string manifest;
};
} // namespace

static CompileResultStorage &unwrap(CakeCompileResult result) {
  return *static_cast<CompileResultStorage *>(result.ptr);
}

MlirModule cakeParseModule(MlirContext context, MlirStringRef source, MlirStringRef filename,
                           CakeDiagnostics diagnostics) {
  MLIRContext *ctx = unwrap(context);
  CollectDiagnostics collect(ctx, diagnostics);
  OwningOpRef<ModuleOp> module =
      cake::parseGuardedSourceString(unwrap(source), ParserConfig(ctx), unwrap(filename));
  return wrap(module.release());
}

MlirLogicalResult cakeVerify(MlirOperation op, CakeDiagnostics diagnostics) {
  Operation *operation = unwrap(op);
  CollectDiagnostics collect(operation->getContext(), diagnostics);
  return wrap(verify(operation));
}

MlirLogicalResult cakeRunPassPipeline(MlirModule module, MlirStringRef pipeline,
                                      CakeDiagnostics diagnostics) {
  ModuleOp moduleOp = unwrap(module);
  CollectDiagnostics collect(moduleOp.getContext(), diagnostics);
  PassManager pm(moduleOp.getContext());
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(unwrap(pipeline), pm, errorStream)))
    return wrap(moduleOp.emitError("invalid pass pipeline '")
                << unwrap(pipeline) << "': " << error);
  return wrap(pm.run(moduleOp));
}

CakeCompileOptions cakeCompileOptionsGetDefault(void) {
  CompileOptions defaults;
  return {mlirStringRefCreate(nullptr, 0), mlirStringRefCreate(nullptr, 0), defaults.optLevel,
          defaults.assemble, mlirStringRefCreate(nullptr, 0), defaults.hangTimeoutMs,
          defaults.indexBitwidth, mlirStringRefCreate(nullptr, 0)};
}

MlirLogicalResult cakeCompile(MlirModule module, CakeCompileOptions options,
                              CakeDiagnostics diagnostics, CakeCompileResult *result) {
  ModuleOp original = unwrap(module);
  CollectDiagnostics collect(original.getContext(), diagnostics);
  CompileOptions compileOptions;
  compileOptions.chip = unwrap(options.chip).str();
  compileOptions.features = unwrap(options.features).str();
  compileOptions.optLevel = options.optLevel;
  compileOptions.ptxasPath = unwrap(options.ptxasPath).str();
  compileOptions.hangTimeoutMs = options.hangTimeoutMs;
  compileOptions.indexBitwidth = options.indexBitwidth;
  compileOptions.specialize = unwrap(options.specialize).str();

  if (failed(verify(original)))
    return mlirLogicalResultFailure();
  OwningOpRef<ModuleOp> copy = original.clone();
  FailureOr<CompileOutput> compiled =
      compile(*copy, compileOptions, options.assemble ? CompileStage::Cubin : CompileStage::PTX);
  if (failed(compiled))
    return mlirLogicalResultFailure();
  result->ptr =
      new CompileResultStorage{std::move(compiled->kernels), std::move(compiled->manifest)};
  return mlirLogicalResultSuccess();
}

MlirStringRef cakeCompileResultGetPTX(CakeCompileResult result) {
  return wrap(llvm::StringRef(unwrap(result).kernels.ptx));
}

MlirStringRef cakeCompileResultGetCubin(CakeCompileResult result) {
  return wrap(llvm::StringRef(unwrap(result).kernels.cubin));
}

MlirStringRef cakeCompileResultGetPtxasReport(CakeCompileResult result) {
  return wrap(llvm::StringRef(unwrap(result).kernels.ptxasReport));
}

MlirStringRef cakeCompileResultGetManifest(CakeCompileResult result) {
  return wrap(llvm::StringRef(unwrap(result).manifest));
}

void cakeCompileResultDestroy(CakeCompileResult result) { delete &unwrap(result); }
