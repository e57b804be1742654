/*===- Diagnostics.h - C API: diagnostics collected, not printed --*- C -*-===*\
|*                                                                            *|
|* Every CAKE C API call that can fail takes a CakeDiagnostics list and       *|
|* appends to it what MLIR reported during the call (errors, warnings, notes  *|
|* attached to them). Nothing is printed.                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef CAKE_C_DIAGNOSTICS_H
#define CAKE_C_DIAGNOSTICS_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A growing list of collected diagnostics. */
typedef struct CakeDiagnostics {
  void *ptr;
} CakeDiagnostics;

/** One diagnostic (or one of its notes). Strings stay valid until the list is cleared or
 *  destroyed. `file` is empty and `line`/`column` are 0 when the location has no file. */
typedef struct CakeDiagnosticRecord {
  MlirDiagnosticSeverity severity;
  MlirStringRef file;
  unsigned line;
  unsigned column;
  MlirStringRef message;
  intptr_t numNotes;
  /** Verifier findings (cake-verify-*) only, else empty: the stable rule id (docs/Verification.md),
   *  a concrete fix hint, and the name of the op the finding is at. */
  MlirStringRef rule;
  MlirStringRef hint;
  MlirStringRef op;
} CakeDiagnosticRecord;

MLIR_CAPI_EXPORTED CakeDiagnostics cakeDiagnosticsCreate(void);
MLIR_CAPI_EXPORTED void cakeDiagnosticsDestroy(CakeDiagnostics diagnostics);
MLIR_CAPI_EXPORTED void cakeDiagnosticsClear(CakeDiagnostics diagnostics);
MLIR_CAPI_EXPORTED intptr_t cakeDiagnosticsGetNum(CakeDiagnostics diagnostics);

/** The diagnostic at `index` (0 <= index < cakeDiagnosticsGetNum). */
MLIR_CAPI_EXPORTED CakeDiagnosticRecord cakeDiagnosticsGet(CakeDiagnostics diagnostics,
                                                           intptr_t index);

/** Note `noteIndex` of the diagnostic at `index` (its numNotes field says how many). */
MLIR_CAPI_EXPORTED CakeDiagnosticRecord cakeDiagnosticsGetNote(CakeDiagnostics diagnostics,
                                                               intptr_t index,
                                                               intptr_t noteIndex);

#ifdef __cplusplus
}
#endif

#endif /* CAKE_C_DIAGNOSTICS_H */
