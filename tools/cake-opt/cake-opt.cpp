//===- cake-opt.cpp - mlir-opt with the cake dialect ----------------------===//
//
// A drop-in mlir-opt: every upstream dialect, extension and pass, plus the cake dialect, its
// passes and the cake-lower-to-nvvm and cake-verify pipelines.
//
// `--cake-diagnostics=json` prints each diagnostic as one JSON line on stderr (rule id, severity,
// location, op, message, notes, fix hint; docs/Verification.md) instead of MLIR's text form. It
// is a property of this tool's output, not of any pass, hence a tool option.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeDialect.h"
#include "Cake/Pipelines/Registration.h"
#include "Cake/Transforms/Findings.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace {
enum class DiagnosticsFormat { Text, Json };

llvm::cl::opt<DiagnosticsFormat> diagnosticsFormat(
    "cake-diagnostics", llvm::cl::desc("How to print diagnostics"),
    llvm::cl::init(DiagnosticsFormat::Text),
    llvm::cl::values(
        clEnumValN(DiagnosticsFormat::Text, "text", "MLIR's text form (default)"),
        clEnumValN(DiagnosticsFormat::Json, "json",
                   "one JSON record per diagnostic on stderr: rule, severity, file, line, col, "
                   "op, message, notes, hint")));
} // namespace

int main(int argc, char **argv) {
  mlir::cake::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::cake::registerAllDialects(registry);
  // mlir-opt owns the context; the JSON handler joins it when the cake dialect loads (while
  // parsing), after mlir-opt's own handler, so it sees every diagnostic first.
  registry.addExtension(+[](mlir::MLIRContext *context, mlir::cake::CakeDialect *) {
    if (diagnosticsFormat == DiagnosticsFormat::Json)
      mlir::cake::registerJsonDiagnosticHandler(context, llvm::errs());
  });
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "CAKE optimizer driver\n", registry));
}
