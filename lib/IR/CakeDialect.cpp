//===- CakeDialect.cpp - the cake dialect ---------------------------------===//
#include "Cake/IR/CakeDialect.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/CakeTypes.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::cake;

#include "Cake/IR/CakeOpsDialect.cpp.inc"
#include "Cake/IR/CakeOpsEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "Cake/IR/CakeOpsAttrs.cpp.inc"

void CakeDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Cake/IR/CakeOps.cpp.inc"
      >();
  registerTypes();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Cake/IR/CakeOpsAttrs.cpp.inc"
      >();
}
