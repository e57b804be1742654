//===- CakePlugin.cpp - the cake dialect and passes for upstream mlir-opt -===//
//
// One shared library that is both a dialect plugin and a pass plugin:
//
//   mlir-opt --load-dialect-plugin=CakePlugin.so --load-pass-plugin=CakePlugin.so \
//            --pass-pipeline='builtin.module(cake-lower-to-nvvm)' kernel.mlir
//
// It links the same libMLIR.so as Debian's mlir-opt, so the upstream dialects, passes and
// registries exist once; only the cake dialect, its passes and its pipeline are added.
//
//===----------------------------------------------------------------------===//
#include "Cake/Pipelines/Registration.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Cake", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) { mlir::cake::registerCakeDialect(*registry); }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Cake", LLVM_VERSION_STRING,
          []() { mlir::cake::registerCakePasses(); }};
}
