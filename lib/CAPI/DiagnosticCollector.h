//===- DiagnosticCollector.h - diagnostics into a CakeDiagnostics -*- C++ -*-===//
#ifndef CAKE_LIB_CAPI_DIAGNOSTICCOLLECTOR_H
#define CAKE_LIB_CAPI_DIAGNOSTICCOLLECTOR_H

#include "Cake-c/Diagnostics.h"

#include "mlir/IR/Diagnostics.h"
#include <string>
#include <vector>

namespace mlir::cake::capi {

/// One collected diagnostic or note, owning its strings.
struct DiagnosticRecord {
  MlirDiagnosticSeverity severity = MlirDiagnosticError;
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string message;
  /// Verifier findings only (else empty): the stable rule id, the fix hint, the op name.
  std::string rule, hint, op;
  std::vector<DiagnosticRecord> notes;
};

/// What a CakeDiagnostics handle points to.
struct DiagnosticList {
  std::vector<DiagnosticRecord> records;
};

inline DiagnosticList &unwrap(CakeDiagnostics diagnostics) {
  return *static_cast<DiagnosticList *>(diagnostics.ptr);
}

/// While alive, appends every diagnostic reported in `context` to `list` instead of printing.
class CollectDiagnostics {
public:
  CollectDiagnostics(MLIRContext *context, CakeDiagnostics list);

private:
  ScopedDiagnosticHandler handler;
};

} // namespace mlir::cake::capi

#endif // CAKE_LIB_CAPI_DIAGNOSTICCOLLECTOR_H
