//===- cake-translate.cpp - cake IR to LLVM IR, PTX, cubin, manifest ------===//
//
//   cake-translate kernel.mlir --emit=ptx|llvm|cubin|manifest [-o FILE] [--manifest FILE]
//
// Cake-level input is lowered with cake-lower-to-nvvm first; already-lowered input (a gpu.module
// with an #nvvm.target) is serialized as is. Errors are MLIR diagnostics with locations (or one
// line naming what is missing) and exit code 1; no output file is left behind on failure.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/ParseGuard.h"
#include "Cake/Pipelines/Compile.h"
#include "Cake/Pipelines/Manifest.h"
#include "Cake/Pipelines/Registration.h"
#include "Cake/Pipelines/Serialize.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Version.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class Emit { LLVM, PTX, Cubin, Manifest };

/// The translator's own options: --help lists these (and MLIR's diagnostic options); the rest
/// (LLVM's backend flags) stay usable and show under --help-hidden.
cl::OptionCategory cakeCategory("cake-translate options");

cl::opt<std::string> inputFile(cl::Positional, cl::cat(cakeCategory), cl::desc("<input .mlir>"),
                               cl::init("-"));
cl::opt<std::string> outputFile("o", cl::cat(cakeCategory),
                                cl::desc("Output file (default: stdout)"), cl::value_desc("file"),
                                cl::init("-"));
cl::opt<Emit>
    emitKind("emit", cl::cat(cakeCategory), cl::desc("What to emit"), cl::init(Emit::PTX),
             cl::values(clEnumValN(Emit::LLVM, "llvm", "LLVM IR of the kernels"),
                        clEnumValN(Emit::PTX, "ptx", "PTX assembly"),
                        clEnumValN(Emit::Cubin, "cubin", "a cubin assembled by ptxas"),
                        clEnumValN(Emit::Manifest, "manifest", "the kernel manifest (JSON)")));
cl::opt<std::string> manifestFile("manifest", cl::cat(cakeCategory),
                                  cl::desc("Also write the kernel manifest to this file"),
                                  cl::value_desc("file"), cl::init(""));
cl::opt<std::string> chip("chip", cl::cat(cakeCategory),
                          cl::desc("Target chip (default: the kernels' target)"), cl::init(""));
cl::opt<std::string> features("features", cl::cat(cakeCategory),
                              cl::desc("PTX features (default: +ptx80)"), cl::init(""));
cl::opt<unsigned> optLevel("opt-level", cl::cat(cakeCategory), cl::desc("LLVM optimization level"),
                           cl::init(3));
cl::opt<unsigned> hangTimeoutMs(
    "hang-timeout-ms", cl::cat(cakeCategory),
    cl::desc("Debug lowering against hangs: bound every mbarrier wait by N ms, then report the "
             "stalled op (listed in the manifest's hang_debug) and trap; 0: off"),
    cl::init(0));
cl::opt<unsigned> indexBitwidth(
    "index-bitwidth", cl::cat(cakeCategory),
    cl::desc("Width of `index` in the kernels: 64, or 32 (faster address arithmetic; the "
             "manifest then bounds every tensor's offsets below 2^30); default: the kernels' "
             "index_bitwidth, else 64"),
    cl::init(0));
cl::opt<std::string> specialize(
    "specialize", cl::cat(cakeCategory),
    cl::desc("Fix problem sizes at compile time, SYMBOL=SIZE[,...]: every kernel that declares "
             "the symbol reads the constant, and its manifest requires that size"),
    cl::value_desc("sizes"), cl::init(""));
cl::opt<std::string> ptxasPath("ptxas", cl::cat(cakeCategory),
                               cl::desc("Path to ptxas (default: CUDA_HOME, PATH)"), cl::init(""));
cl::opt<cake::DiagnosticsFormat> diagnosticsFormat(
    "cake-diagnostics", cl::cat(cakeCategory), cl::desc("How to print diagnostics"),
    cl::init(cake::DiagnosticsFormat::Text), cake::getDiagnosticsFormatValues());
cl::opt<std::string> ptxasLog("ptxas-log", cl::cat(cakeCategory),
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
  out->os().flush();
  // A failed write (a full disk, /dev/full) is this tool's error, with the path: left set, the
  // stream would abort the process with "LLVM ERROR: IO failure on output stream".
  if (std::error_code ec = out->os().error()) {
    out->os().clear_error();
    if (!llvm::sys::fs::is_regular_file(path))
      out->keep(); // a device or pipe: ToolOutputFile would otherwise unlink it
    fail("cannot write " + path + ": " + ec.message());
    return failure();
  }
  out->keep();
  return success();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { os << "CAKE version " CAKE_VERSION " (cake-translate)\n"; });
  cake::registerAllPasses();
  // MLIR's context options (--mlir-print-op-on-diagnostic, --mlir-disable-threading, ...) and the
  // printer's debug-info options, as cake-opt has them.
  registerMLIRContextCLOptions();
  registerAsmPrinterCLOptions();
  llvm::StringSet<> shown = {"help",
                             "help-hidden",
                             "version",
                             "mlir-print-op-on-diagnostic",
                             "mlir-print-stacktrace-on-diagnostic",
                             "mlir-disable-threading",
                             "mlir-print-debuginfo"};
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (!shown.contains(name) && !llvm::is_contained(option->Categories, &cakeCategory) &&
        option->getOptionHiddenFlag() == cl::NotHidden)
      option->setHiddenFlag(cl::Hidden);
  cl::ParseCommandLineOptions(argc, argv,
                              "CAKE translator: cake IR to LLVM IR, PTX, cubin and "
                              "the kernel manifest\n");

  DialectRegistry registry;
  cake::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // A diagnostic's location names the op: unless asked for, do not print the op with it (an
  // error on a kernel or a lowered module would print all of it).
  if (!cl::getRegisteredOptions().lookup("mlir-print-op-on-diagnostic")->getNumOccurrences())
    context.printOpOnDiagnostic(false);

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFile, &error);
  if (!input)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  // Attached after the text handler, so it sees every diagnostic first (and takes it); the
  // SARIF log is printed however main returns.
  cake::DiagnosticsPrinter printer(diagnosticsFormat, "cake-translate", llvm::errs());
  printer.attach(&context);
  auto finish = llvm::make_scope_exit([&] { printer.finish(); });
  OwningOpRef<ModuleOp> module = cake::parseGuardedSourceFile(sourceMgr, ParserConfig(&context));
  if (!module)
    return 1;

  cake::CompileOptions options;
  options.chip = chip;
  options.features = features;
  options.optLevel = optLevel;
  options.hangTimeoutMs = hangTimeoutMs;
  options.indexBitwidth = indexBitwidth;
  options.specialize = specialize;
  options.ptxasPath = ptxasPath;
  options.requireManifest = !manifestFile.empty();
  cake::CompileStage last = emitKind == Emit::Manifest ? cake::CompileStage::Manifest
                            : emitKind == Emit::LLVM   ? cake::CompileStage::LLVMIR
                            : emitKind == Emit::PTX    ? cake::CompileStage::PTX
                                                       : cake::CompileStage::Cubin;
  FailureOr<cake::CompileOutput> compiled = cake::compile(*module, options, last);
  if (failed(compiled))
    return 1;
  if (!manifestFile.empty() && failed(writeOutput(manifestFile, compiled->manifest)))
    return 1;
  if (!ptxasLog.empty() && failed(writeOutput(ptxasLog, compiled->kernels.ptxasReport)))
    return 1;
  switch (last) {
  case cake::CompileStage::Manifest:
    return failed(writeOutput(outputFile, compiled->manifest)) ? 1 : 0;
  case cake::CompileStage::LLVMIR:
    return failed(writeOutput(outputFile, compiled->llvmIR)) ? 1 : 0;
  case cake::CompileStage::PTX:
    return failed(writeOutput(outputFile, compiled->kernels.ptx)) ? 1 : 0;
  case cake::CompileStage::Cubin:
    return failed(writeOutput(outputFile, compiled->kernels.cubin)) ? 1 : 0;
  }
  llvm_unreachable("every stage is handled");
}
