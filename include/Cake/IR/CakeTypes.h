//===- CakeTypes.h - cake types ---------------------------------*- C++ -*-===//
#ifndef CAKE_IR_CAKETYPES_H
#define CAKE_IR_CAKETYPES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "Cake/IR/CakeOpsTypes.h.inc"

namespace mlir::cake {
/// The targets a kernel may name, oldest first.
llvm::ArrayRef<llvm::StringRef> getKnownTargets();
/// True for the targets `cake.kernel` accepts.
bool isKnownTarget(llvm::StringRef target);
/// Bytes of one element of a scalar int or float type.
unsigned getElementBytes(Type type);
/// True for the fp8 element types (e4m3fn, e5m2): operands of tcgen05's kind::f8f6f4 MMAs.
bool isFp8Type(Type type);
} // namespace mlir::cake

#endif // CAKE_IR_CAKETYPES_H
