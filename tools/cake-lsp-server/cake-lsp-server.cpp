//===- cake-lsp-server.cpp - MLIR's LSP server with the cake dialect ------===//
//
// Diagnostics, hover, go-to-definition, references and completion on .mlir files holding cake
// kernels, for any editor speaking LSP (docs/Embedding-LSP.md).
//
//===----------------------------------------------------------------------===//
#include "Cake/Pipelines/Registration.h"
#include "Cake/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { os << "CAKE version " CAKE_VERSION " (cake-lsp-server)\n"; });
  mlir::DialectRegistry registry;
  mlir::cake::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}
