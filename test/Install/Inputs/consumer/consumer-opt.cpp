//===- consumer-opt.cpp - an opt tool of another project, with CAKE -------===//
#include "Cake/IR/CakeDialect.h"
#include "Cake/Pipelines/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  // The project's own dialects would go here; CAKE adds its dialect and what it lowers to.
  mlir::cake::registerAllDialects(registry);
  mlir::cake::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "consumer-opt: another project's tool\n", registry));
}
