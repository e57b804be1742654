//===- HostNames.cpp - how a host names a kernel's parameters -------------===//
#include "Cake/IR/HostNames.h"
#include "Cake/IR/CakeOps.h"

using namespace mlir;
using namespace mlir::cake;

std::string mlir::cake::getParamName(KernelOp kernel, unsigned index) {
  if (auto name = kernel.getArgAttrOfType<StringAttr>(index, "cake.name"))
    return name.getValue().str();
  return "arg" + std::to_string(index);
}

std::string mlir::cake::getExtentText(Attribute extent) {
  if (auto value = dyn_cast<IntegerAttr>(extent))
    return std::to_string(value.getInt());
  return cast<StringAttr>(extent).getValue().str();
}

StringRef mlir::cake::getDtypeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  if (isa<Float8E4M3FNType>(type))
    return "f8e4m3";
  if (isa<Float8E5M2Type>(type))
    return "f8e5m2";
  if (type.isInteger(8))
    return "i8";
  if (type.isInteger(32))
    return "i32";
  if (type.isInteger(64))
    return "i64";
  return "unknown";
}
