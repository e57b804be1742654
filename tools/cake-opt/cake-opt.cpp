//===- cake-opt.cpp - mlir-opt with the cake dialect ----------------------===//
//
// A drop-in mlir-opt: every upstream dialect, extension and pass, plus the cake dialect, its
// passes and the cake-lower-to-nvvm and cake-verify pipelines.
//
// `--cake-diagnostics=json` prints each diagnostic as one JSON line on stderr (schema, version,
// rule id, severity, location, op, message, notes, fix hint; docs/Verification.md) instead of
// MLIR's text form; `=sarif` prints one SARIF 2.1.0 log of them on stderr when done. It is a
// property of this tool's output, not of any pass, hence a tool option.
//
// `--cake-load-rules=FILE[,FILE...]` loads verifier rules written in the PDL dialect and
// registers each as the pass `cake-rule-<name>` (lib/Verify/Rules.cpp). The files are read
// before the command line is parsed, since the pass options are made from the registry then.
// With `cake-verify` on the command line, the shipped rules (share/cake/rules and
// share/cake/rules/learned beside this binary's bin/) are loaded too, unless
// `--cake-no-shipped-rules`; a shipped file whose name is also given explicitly is skipped.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeDialect.h"
#include "Cake/IR/ParseGuard.h"
#include "Cake/Pipelines/Registration.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Rules.h"
#include "Cake/Transforms/TacticRegistry.h"
#include "Cake/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

namespace {
llvm::cl::opt<mlir::cake::DiagnosticsFormat> diagnosticsFormat(
    "cake-diagnostics", llvm::cl::desc("How to print diagnostics"),
    llvm::cl::init(mlir::cake::DiagnosticsFormat::Text), mlir::cake::getDiagnosticsFormatValues());

/// The one printer of the process: -split-input-file gives each chunk its own context.
mlir::cake::DiagnosticsPrinter &diagnosticsPrinter() {
  static mlir::cake::DiagnosticsPrinter printer(diagnosticsFormat, "cake-opt", llvm::errs());
  return printer;
}

llvm::cl::list<std::string> ruleFiles(
    "cake-load-rules", llvm::cl::CommaSeparated,
    llvm::cl::desc("Load verifier rules (PDL) from these files; each rule runs as the pass "
                   "cake-rule-<name> and in cake-verify"),
    llvm::cl::value_desc("file"));

llvm::cl::opt<bool> listTactics(
    "cake-list-tactics",
    llvm::cl::desc("Print the shipped tactics as JSON ({\"version\": 1, \"tactics\": [{name, pass, "
                   "pipeline, transform, requires_ops, forbids_ops}]}) and exit"));

// Declared so that --help lists it; main() answers it before mlir-opt's driver runs.
llvm::cl::opt<std::string> listRules(
    "cake-list-rules", llvm::cl::ValueOptional,
    llvm::cl::desc("Print every rule id the verify passes report and exit: JSON ({\"version\": "
                   "1, \"rules\": [{id, pass, finding}]}), or a markdown table with "
                   "=markdown"));

llvm::cl::opt<bool> noShippedRules(
    "cake-no-shipped-rules",
    llvm::cl::desc("Do not load the shipped verifier rules (share/cake/rules) for cake-verify"));

/// Whether the command line runs cake-verify (the pass or pipeline itself, not one cake-verify-*).
bool runsVerify(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.ltrim('-') == "cake-no-shipped-rules")
      return false;
  }
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    for (size_t at = arg.find("cake-verify"); at != llvm::StringRef::npos;
         at = arg.find("cake-verify", at + 1)) {
      llvm::StringRef rest = arg.drop_front(at + strlen("cake-verify"));
      if (rest.empty() || !(rest.front() == '-' || llvm::isAlnum(rest.front())))
        return true;
    }
  }
  return false;
}

/// The values of --cake-load-rules (=FILE or FILE as the next argument), read before the options
/// are parsed.
std::vector<std::string> scanRuleFiles(int argc, char **argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--")
      break;
    arg = arg.ltrim('-');
    if (!arg.consume_front("cake-load-rules"))
      continue;
    llvm::StringRef value;
    if (arg.consume_front("="))
      value = arg;
    else if (arg.empty() && i + 1 < argc)
      value = argv[++i];
    else
      continue;
    llvm::SmallVector<llvm::StringRef> parts;
    value.split(parts, ',', -1, false);
    for (llvm::StringRef part : parts)
      files.push_back(part.str());
  }
  return files;
}

/// Whether `file` holds a construct MLIR 22's parser would crash on; if so it is reported as an
/// error at its location, in the chosen diagnostics format.
bool reportUnparseable(const llvm::MemoryBuffer &file) {
  if (!mlir::cake::findUnparseableInput(file.getBuffer()))
    return false; // the usual case: no context or handlers to set up
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(file.getMemBufferRef(), false),
                               llvm::SMLoc());
  mlir::MLIRContext context;
  mlir::SourceMgrDiagnosticHandler text(sourceMgr, &context);
  std::optional<mlir::ScopedDiagnosticHandler> structured;
  if (diagnosticsFormat != mlir::cake::DiagnosticsFormat::Text)
    structured.emplace(&context, [](mlir::Diagnostic &diag) {
      return mlir::success(diagnosticsPrinter().handle(diag));
    });
  return mlir::cake::reportUnparseableInput(sourceMgr, &context);
}

/// mlir-opt's driver (MlirOptMain with the parsed options), except that an input MLIR's parser
/// would crash on is reported and not parsed.
mlir::LogicalResult optMain(int argc, char **argv, llvm::StringRef inputFilename,
                            llvm::StringRef outputFilename, mlir::DialectRegistry &registry) {
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses()) // no input is read
    return mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry);
  llvm::InitLLVM initLLVM(argc, argv);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(inputFilename, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return mlir::failure();
  }
  if (reportUnparseable(*file))
    return mlir::failure();
  std::unique_ptr<llvm::ToolOutputFile> output = mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return mlir::failure();
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return mlir::failure();
  output->keep();
  return mlir::success();
}
} // namespace

int main(int argc, char **argv) {
  // The tactic registry needs no input: answered before mlir-opt's driver wants a file.
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]).ltrim('-') == "cake-list-tactics") {
      llvm::outs() << llvm::formatv("{0:2}\n", mlir::cake::tacticPresetsAsJson());
      return 0;
    }
  // So is the rule list (--cake-list-rules[=json|markdown]).
  for (int i = 1; i < argc; ++i) {
    auto [flag, format] = llvm::StringRef(argv[i]).ltrim('-').split('=');
    if (flag != "cake-list-rules")
      continue;
    if (format != "" && format != "json" && format != "markdown") {
      llvm::errs() << "cake-opt: --cake-list-rules: expected json or markdown, got '" << format
                   << "'\n";
      return 2;
    }
    mlir::cake::printVerifierRules(llvm::outs(), format == "markdown");
    return 0;
  }
  llvm::cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { os << "CAKE version " CAKE_VERSION " (cake-opt)\n"; });
  mlir::cake::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::cake::registerAllDialects(registry);
  // Rules are checked in a scratch context of this registry, before the JSON extension joins it.
  std::vector<std::string> files = scanRuleFiles(argc, argv);
  if (runsVerify(argc, argv)) {
    std::set<std::string> given;
    for (const std::string &file : files)
      given.insert(llvm::sys::path::filename(file).str());
    std::string exe = llvm::sys::fs::getMainExecutable(argv[0], (void *)&scanRuleFiles);
    for (const std::string &file : mlir::cake::getShippedRuleFiles(exe))
      if (!given.count(llvm::sys::path::filename(file).str()))
        files.push_back(file);
  }
  for (const std::string &file : files)
    if (mlir::failed(mlir::cake::loadRuleFile(file, registry)))
      return 1;
  // mlir-opt owns the context; the JSON handler joins it when the cake dialect loads (while
  // parsing), after mlir-opt's own handler, so it sees every diagnostic first.
  registry.addExtension(+[](mlir::MLIRContext *context, mlir::cake::CakeDialect *) {
    // Once per context: the pass manager applies the extension again when a pass's dependent
    // dialects join the context (cake-verify's dynamic pipelines, a rule's PDL dialects). The
    // mark lives as long as the handler (the context), so a later context at the same address
    // (-split-input-file) gets its own.
    static llvm::SmallPtrSet<mlir::MLIRContext *, 4> withHandler;
    if (diagnosticsFormat == mlir::cake::DiagnosticsFormat::Text ||
        !withHandler.insert(context).second)
      return;
    struct Mark {
      explicit Mark(mlir::MLIRContext *context) : context(context) {}
      Mark(const Mark &) = delete;
      ~Mark() { withHandler.erase(context); }
      mlir::MLIRContext *context;
    };
    auto mark = std::make_shared<Mark>(context);
    context->getDiagEngine().registerHandler([mark](mlir::Diagnostic &diag) {
      return mlir::success(diagnosticsPrinter().handle(diag));
    });
  });
  auto [inputFilename, outputFilename] =
      mlir::registerAndParseCLIOptions(argc, argv, "CAKE optimizer driver\n", registry);
  mlir::LogicalResult result = optMain(argc, argv, inputFilename, outputFilename, registry);
  diagnosticsPrinter().finish();
  return mlir::asMainReturnCode(result);
}
