//===- CakeOps.h - cake operations ------------------------------*- C++ -*-===//
#ifndef CAKE_IR_CAKEOPS_H
#define CAKE_IR_CAKEOPS_H

#include "Cake/IR/CakeDialect.h"
#include "Cake/IR/CakeTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "Cake/IR/CakeOps.h.inc"

#endif // CAKE_IR_CAKEOPS_H
