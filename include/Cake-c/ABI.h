/*===- ABI.h - C API: the host ABI (manifest, size expressions) ---*- C -*-===*\
|*                                                                            *|
|* The manifest's reader and expression evaluator (Cake/ABI) that cake-run    *|
|* uses, for hosts that launch kernels themselves (the Python bindings, the   *|
|* harness): a shape is judged by the same code that will run it.             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef CAKE_C_ABI_H
#define CAKE_C_ABI_H

#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Judges problem sizes (`numSizes` names and values) against kernel `kernel` (empty: the only
 *  one) of the manifest text `manifest`, as `cake-run --check-sizes` does: every constraint, the
 *  tensors' extents and strides, the grid. Passes one JSON object to `callback`:
 *  {"ok": true, "error": null, "kernel": ENTRY, "grid": [x, y, z], "block": [x, y, z]}, or
 *  {"ok": false, "error": "constraint mod(N, 4) == 0 violated for N=10", ...}. */
MLIR_CAPI_EXPORTED void cakeManifestCheckSizes(MlirStringRef manifest, MlirStringRef kernel,
                                               intptr_t numSizes, const MlirStringRef *names,
                                               const int64_t *values, MlirStringCallback callback,
                                               void *userData);

/** Evaluates one expression or constraint of the manifest's language (docs/Manifest.md) for the
 *  given sizes. Passes {"value": V} (a constraint: 1 holds, 0 not) or {"error": "..."} (a parse
 *  error, an unknown size, a division by zero, an overflow) to `callback`. */
MLIR_CAPI_EXPORTED void cakeManifestEvaluate(MlirStringRef expression, intptr_t numSizes,
                                             const MlirStringRef *names, const int64_t *values,
                                             MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* CAKE_C_ABI_H */
