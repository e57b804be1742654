//===- Dialect.cpp - C API: the cake dialect and its registration ---------===//
#include "Cake-c/Dialect.h"
#include "Cake/IR/CakeDialect.h"
#include "Cake/Pipelines/Registration.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Cake, cake, mlir::cake::CakeDialect)

void cakeRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::cake::registerAllDialects(*unwrap(registry));
}

void cakeRegisterAllPasses(void) { mlir::cake::registerAllPasses(); }

MlirContext cakeContextCreate(void) {
  mlir::cake::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::cake::registerAllDialects(registry);
  auto *context = new mlir::MLIRContext(registry);
  context->loadAllAvailableDialects();
  // Diagnostics go to the caller as records: no generic-form dump of the op in a note.
  context->printOpOnDiagnostic(false);
  return wrap(context);
}
