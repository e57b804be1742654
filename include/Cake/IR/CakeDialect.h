//===- CakeDialect.h - the cake dialect -------------------------*- C++ -*-===//
#ifndef CAKE_IR_CAKEDIALECT_H
#define CAKE_IR_CAKEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dialect.h"

#include "Cake/IR/CakeOpsDialect.h.inc"
#include "Cake/IR/CakeOpsEnums.h.inc"
#define GET_ATTRDEF_CLASSES
#include "Cake/IR/CakeOpsAttrs.h.inc"

#endif // CAKE_IR_CAKEDIALECT_H
