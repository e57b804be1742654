//===- cake-opt.cpp - mlir-opt with the cake dialect ----------------------===//
//
// A drop-in mlir-opt: every upstream dialect, extension and pass, plus the cake dialect, its
// passes and the cake-lower-to-nvvm pipeline.
//
//===----------------------------------------------------------------------===//
#include "Cake/Conversion/Passes.h"
#include "Cake/IR/CakeDialect.h"
#include "Cake/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::cake::registerCakeConversionPasses();
  mlir::cake::registerCakePipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::cake::CakeDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "CAKE optimizer driver\n", registry));
}
