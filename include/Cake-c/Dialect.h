/*===- Dialect.h - C API: the cake dialect and its registration ---*- C -*-===*\
|*                                                                            *|
|* Thin C wrappers over CAKE's C++ registration (Cake/Pipelines/Registration.h),*|
|* following the MLIR C API conventions (mlir-c/IR.h).                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef CAKE_C_DIALECT_H
#define CAKE_C_DIALECT_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/** mlirGetDialectHandle__cake__(): the cake dialect alone. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Cake, cake);

/** Inserts every upstream dialect and extension, the LLVM IR translations, the NVVM target
 *  models and the cake dialect into `registry`. */
MLIR_CAPI_EXPORTED void cakeRegisterAllDialects(MlirDialectRegistry registry);

/** Registers every upstream pass and the cake passes and pipelines (cake-lower-to-nvvm), so
 *  that textual pass pipelines can name them. Safe to call more than once. */
MLIR_CAPI_EXPORTED void cakeRegisterAllPasses(void);

/** A new context with cakeRegisterAllDialects's dialects loaded and the passes registered.
 *  Destroy it with mlirContextDestroy. */
MLIR_CAPI_EXPORTED MlirContext cakeContextCreate(void);

#ifdef __cplusplus
}
#endif

#endif /* CAKE_C_DIALECT_H */
