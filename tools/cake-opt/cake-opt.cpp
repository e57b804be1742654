//===- cake-opt.cpp - mlir-opt with the cake dialect ----------------------===//
//
// A drop-in mlir-opt: every upstream dialect, extension and pass, plus the cake dialect, its
// passes and the cake-lower-to-nvvm pipeline.
//
//===----------------------------------------------------------------------===//
#include "Cake/Pipelines/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::cake::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::cake::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "CAKE optimizer driver\n", registry));
}
