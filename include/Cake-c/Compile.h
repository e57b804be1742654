/*===- Compile.h - C API: parse, verify, run pipelines, compile ---*- C -*-===*\
|*                                                                            *|
|* The whole CAKE compile path behind C functions: the same code as           *|
|* cake-opt and cake-translate (Cake/Pipelines/Compile.h), so the results are *|
|* the same. Failures return a null module or a failed MlirLogicalResult and  *|
|* leave the reasons in the CakeDiagnostics passed in.                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef CAKE_C_COMPILE_H
#define CAKE_C_COMPILE_H

#include "Cake-c/Diagnostics.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Parses (and verifies) `source`; `filename` names it in locations. Returns a null module
 *  (mlirModuleIsNull) on failure. */
MLIR_CAPI_EXPORTED MlirModule cakeParseModule(MlirContext context, MlirStringRef source,
                                              MlirStringRef filename,
                                              CakeDiagnostics diagnostics);

/** Runs the verifiers on `op` and its nested operations. */
MLIR_CAPI_EXPORTED MlirLogicalResult cakeVerify(MlirOperation op, CakeDiagnostics diagnostics);

/** Parses `pipeline`, a textual pass pipeline relative to builtin.module (as
 *  "cake-lower-to-nvvm{chip=sm_80}" or "canonicalize,cse"), and runs it on `module` in place. */
MLIR_CAPI_EXPORTED MlirLogicalResult cakeRunPassPipeline(MlirModule module,
                                                         MlirStringRef pipeline,
                                                         CakeDiagnostics diagnostics);

/** What cakeCompile does: empty strings mean "the default" (as cake-translate's flags). */
typedef struct CakeCompileOptions {
  MlirStringRef chip;
  MlirStringRef features;
  unsigned optLevel;
  /** Also assemble a cubin with ptxas. */
  bool assemble;
  /** ptxas to use; empty: $CUDA_HOME/bin, $CUDA_PATH/bin, $CUDA_ROOT/bin, then PATH. */
  MlirStringRef ptxasPath;
  /** The debug lowering against hangs (cake-translate --hang-timeout-ms): bound every mbarrier
   *  wait by this many ms, report the stalled op and trap; the manifest lists the sites. 0: off. */
  unsigned hangTimeoutMs;
  /** Width of `index` in the lowered kernels (cake-translate --index-bitwidth): 64, or 32 with
   *  the manifest bounding every tensor's offsets below 2^30; 0: the kernels' index_bitwidth,
   *  else 64. */
  unsigned indexBitwidth;
  /** Problem sizes fixed at compile time, "D=53,K=8" (cake-translate --specialize): each kernel
   *  that declares the symbol reads the constant and its manifest requires it; empty: none. */
  MlirStringRef specialize;
} CakeCompileOptions;

MLIR_CAPI_EXPORTED CakeCompileOptions cakeCompileOptionsGetDefault(void);

/** What cakeCompile produced; destroy with cakeCompileResultDestroy. */
typedef struct CakeCompileResult {
  void *ptr;
} CakeCompileResult;

/** Compiles a copy of `module` (left unchanged): cake-level IR is lowered with
 *  cake-lower-to-nvvm, lowered IR (a gpu.module) is used as is. On success `*result` holds the
 *  PTX, the cubin when asked, and the manifest JSON when the module holds cake kernels. */
MLIR_CAPI_EXPORTED MlirLogicalResult cakeCompile(MlirModule module, CakeCompileOptions options,
                                                 CakeDiagnostics diagnostics,
                                                 CakeCompileResult *result);

MLIR_CAPI_EXPORTED MlirStringRef cakeCompileResultGetPTX(CakeCompileResult result);
/** The cubin bytes (binary; use the length); empty unless options.assemble. */
MLIR_CAPI_EXPORTED MlirStringRef cakeCompileResultGetCubin(CakeCompileResult result);
/** ptxas's resource report (-v); empty unless options.assemble. */
MLIR_CAPI_EXPORTED MlirStringRef cakeCompileResultGetPtxasReport(CakeCompileResult result);
/** The kernel manifest (docs/Manifest.md) as JSON text; empty for already-lowered input. */
MLIR_CAPI_EXPORTED MlirStringRef cakeCompileResultGetManifest(CakeCompileResult result);
MLIR_CAPI_EXPORTED void cakeCompileResultDestroy(CakeCompileResult result);

/** Runs the cost model (the `cake-print-cost` pass, docs/CostModel.md) on the kernels of `module`,
 *  which is not changed, for the problem sizes `sizes` ("M=8192,N=8192,K=8192"; empty: the report
 *  says which sizes it needs and gives per-size formulas) and the hardware profile `profile` (a
 *  name such as "h200" or a path; empty: the one of each kernel's target). The JSON cost report is
 *  passed to `callback`; the model's remarks and any errors go to `diagnostics`. */
MLIR_CAPI_EXPORTED MlirLogicalResult cakeCost(MlirModule module, MlirStringRef sizes,
                                              MlirStringRef profile, CakeDiagnostics diagnostics,
                                              MlirStringCallback callback, void *userData);

/** Passes a structured JSON view of `module` (every op with its name, location, operands,
 *  typed results, printed attributes and regions: the schema of `cake-opt --cake-print-ir-json`,
 *  Cake/Analysis/IRJson.h) to `callback`; the module is not changed. */
MLIR_CAPI_EXPORTED void cakeModuleToJson(MlirModule module, MlirStringCallback callback,
                                         void *userData);

#ifdef __cplusplus
}
#endif

#endif /* CAKE_C_COMPILE_H */
