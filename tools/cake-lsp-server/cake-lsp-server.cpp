//===- cake-lsp-server.cpp - MLIR's LSP server with the cake dialect ------===//
//
// Diagnostics (op verifiers and cake-verify findings with their notes), fix hints as quick
// fixes, hover, go-to-definition, references and completion on .mlir files holding cake kernels,
// for any editor speaking LSP (docs/Embedding-LSP.md). MLIR's server runs as a child process
// behind a relay that adds CAKE's part (LspProxy.h).
//
//===----------------------------------------------------------------------===//
#include "LspProxy.h"

#include "Cake/Pipelines/Registration.h"
#include "Cake/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

/// MLIR's own server, with every dialect CAKE registers.
static int runMlirServer(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { os << "CAKE version " CAKE_VERSION " (cake-lsp-server)\n"; });
  mlir::DialectRegistry registry;
  mlir::cake::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}

int main(int argc, char **argv) {
  std::vector<char *> args(argv, argv + argc);
  if (argc > 1 && llvm::StringRef(argv[1]) == mlir::cake::lsp::kChildFlag) {
    args.erase(args.begin() + 1);
    return runMlirServer(static_cast<int>(args.size()), args.data());
  }
  // Options that answer and exit (--help, --version, a bad option) need no relay.
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]).starts_with("--help") ||
        llvm::StringRef(argv[i]).starts_with("-help") || llvm::StringRef(argv[i]) == "--version")
      return runMlirServer(argc, argv);
  return mlir::cake::lsp::runProxy(argc, argv);
}
