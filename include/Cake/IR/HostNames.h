//===- HostNames.h - how a host names a kernel's parameters -----*- C++ -*-===//
//
// The names the manifest gives a parameter and its element type, shared by the manifest writer
// and the checks that compare a kernel with a declared interface.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_IR_HOSTNAMES_H
#define CAKE_IR_HOSTNAMES_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::cake {
class KernelOp;

/// Parameter `index` of `kernel`: its `cake.name`, else "arg<index>".
std::string getParamName(KernelOp kernel, unsigned index);

/// A tensor extent (an integer or a problem-size symbol) as the manifest writes it: "128", "N".
std::string getExtentText(mlir::Attribute extent);

/// An element or scalar type as the manifest writes it: f16 bf16 f32 f64 i8 i32 i64, else
/// "unknown".
llvm::StringRef getDtypeName(Type type);

} // namespace mlir::cake

#endif // CAKE_IR_HOSTNAMES_H
