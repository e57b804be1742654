//===- cake-translate.cpp - cake IR to LLVM IR, PTX, cubin, manifest ------===//
//
//   cake-translate kernel.mlir --emit=ptx|llvm|cubin|manifest [-o FILE] [--manifest FILE]
//
// Cake-level input is lowered with cake-lower-to-nvvm first; already-lowered input (a gpu.module
// with an #nvvm.target) is serialized as is. Errors are MLIR diagnostics with locations (or one
// line naming what is missing) and exit code 1; no output file is left behind on failure.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeDialect.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/Pipelines/Manifest.h"
#include "Cake/Pipelines/Pipelines.h"
#include "Cake/Pipelines/Serialize.h"
#include "Cake/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class Emit { LLVM, PTX, Cubin, Manifest };

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"), cl::init("-"));
cl::opt<std::string> outputFile("o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("file"), cl::init("-"));
cl::opt<Emit> emitKind(
    "emit", cl::desc("What to emit"), cl::init(Emit::PTX),
    cl::values(clEnumValN(Emit::LLVM, "llvm", "LLVM IR of the kernels"),
               clEnumValN(Emit::PTX, "ptx", "PTX assembly"),
               clEnumValN(Emit::Cubin, "cubin", "a cubin assembled by ptxas"),
               clEnumValN(Emit::Manifest, "manifest", "the kernel manifest (JSON)")));
cl::opt<std::string> manifestFile("manifest",
                                  cl::desc("Also write the kernel manifest to this file"),
                                  cl::value_desc("file"), cl::init(""));
cl::opt<std::string> chip("chip", cl::desc("Target chip (default: the kernels' target)"),
                          cl::init(""));
cl::opt<std::string> features("features", cl::desc("PTX features (default: +ptx80)"),
                              cl::init(""));
cl::opt<unsigned> optLevel("opt-level", cl::desc("LLVM optimization level"), cl::init(3));
cl::opt<std::string> ptxasPath("ptxas", cl::desc("Path to ptxas (default: CUDA_HOME, PATH)"),
                               cl::init(""));
cl::opt<std::string> ptxasLog("ptxas-log",
                              cl::desc("Write ptxas's resource report (-v) to this file"),
                              cl::init(""));

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "cake-translate") << message << "\n";
  return 1;
}

/// Writes `contents` to `path` ("-" is stdout); only kept when the write succeeds.
LogicalResult writeOutput(StringRef path, StringRef contents) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(path, &error);
  if (!out) {
    fail(error);
    return failure();
  }
  out->os() << contents;
  out->keep();
  return success();
}

std::string jsonText(const llvm::json::Value &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", value) << "\n";
  return text;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  cake::registerCakeConversionPasses();
  cl::ParseCommandLineOptions(argc, argv, "CAKE translator: cake IR to LLVM IR, PTX, cubin and "
                                          "the kernel manifest\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registry.insert<cake::CakeDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFile, &error);
  if (!input)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  bool isCakeLevel = !module->getOps<cake::KernelOp>().empty();
  if (emitKind == Emit::Manifest || !manifestFile.empty()) {
    FailureOr<llvm::json::Value> manifest = cake::buildManifest(*module);
    if (failed(manifest))
      return 1;
    std::string text = jsonText(*manifest);
    if (emitKind == Emit::Manifest)
      return failed(writeOutput(outputFile, text)) ? 1 : 0;
    if (failed(writeOutput(manifestFile, text)))
      return 1;
  }

  if (isCakeLevel) {
    PassManager pm(&context);
    cake::LowerToNVVMOptions options;
    options.chip = chip;
    options.features = features;
    options.optLevel = optLevel;
    if (failed(cake::buildLowerToNVVMPipeline(pm, options)) || failed(pm.run(*module)))
      return 1;
  } else if (module->getOps<gpu::GPUModuleOp>().empty()) {
    return fail("no cake.kernel and no gpu.module in " + inputFile);
  }

  if (emitKind == Emit::LLVM) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (failed(cake::emitLLVMIR(*module, os)))
      return 1;
    return failed(writeOutput(outputFile, text)) ? 1 : 0;
  }

  FailureOr<std::string> ptx = cake::emitPTX(*module);
  if (failed(ptx))
    return 1;
  if (emitKind == Emit::PTX)
    return failed(writeOutput(outputFile, *ptx)) ? 1 : 0;

  FailureOr<std::string> loweredChip = cake::getLoweredChip(*module);
  if (failed(loweredChip))
    return 1;
  std::string ptxas = cake::findPtxas(ptxasPath);
  if (ptxas.empty())
    return fail(ptxasPath.empty()
                    ? "ptxas not found (needed for --emit=cubin): set CUDA_HOME to the CUDA "
                      "toolkit or pass --ptxas=PATH"
                    : "ptxas not found or not executable: " + ptxasPath);
  std::string report;
  FailureOr<std::string> cubin = cake::assembleCubin(*ptx, *loweredChip, ptxas, report);
  if (failed(cubin))
    return fail("ptxas failed for " + *loweredChip + ":\n" + report);
  if (!ptxasLog.empty() && failed(writeOutput(ptxasLog, report)))
    return 1;
  return failed(writeOutput(outputFile, *cubin)) ? 1 : 0;
}
