//===- Diagnostics.cpp - C API: diagnostics collected, not printed --------===//
#include "DiagnosticCollector.h"

#include "Cake/Verify/Findings.h"

#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

using namespace mlir;
using namespace mlir::cake::capi;

static MlirDiagnosticSeverity toC(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return MlirDiagnosticError;
  case DiagnosticSeverity::Warning:
    return MlirDiagnosticWarning;
  case DiagnosticSeverity::Note:
    return MlirDiagnosticNote;
  case DiagnosticSeverity::Remark:
    return MlirDiagnosticRemark;
  }
  return MlirDiagnosticError;
}

using mlir::cake::FindingInfo;

static DiagnosticRecord toRecord(Diagnostic &diagnostic) {
  DiagnosticRecord record;
  FindingInfo finding = mlir::cake::getFindingInfo(diagnostic);
  record.rule = finding.rule;
  record.hint = finding.hint;
  record.op = finding.op;
  record.severity = toC(diagnostic.getSeverity());
  record.message = diagnostic.str();
  if (auto loc = diagnostic.getLocation()->findInstanceOf<FileLineColLoc>()) {
    record.file = loc.getFilename().str();
    record.line = loc.getLine();
    record.column = loc.getColumn();
  }
  for (Diagnostic &note : diagnostic.getNotes())
    record.notes.push_back(toRecord(note));
  return record;
}

CollectDiagnostics::CollectDiagnostics(MLIRContext *context, CakeDiagnostics list)
    : handler(context, [list](Diagnostic &diagnostic) {
        unwrap(list).records.push_back(toRecord(diagnostic));
        return success();
      }) {}

static CakeDiagnosticRecord toC(const DiagnosticRecord &record) {
  return {record.severity,
          wrap(llvm::StringRef(record.file)),
          record.line,
          record.column,
          wrap(llvm::StringRef(record.message)),
          static_cast<intptr_t>(record.notes.size()),
          wrap(llvm::StringRef(record.rule)),
          wrap(llvm::StringRef(record.hint)),
          wrap(llvm::StringRef(record.op))};
}

CakeDiagnostics cakeDiagnosticsCreate(void) { return {new DiagnosticList()}; }

void cakeDiagnosticsDestroy(CakeDiagnostics diagnostics) { delete &unwrap(diagnostics); }

void cakeDiagnosticsClear(CakeDiagnostics diagnostics) { unwrap(diagnostics).records.clear(); }

intptr_t cakeDiagnosticsGetNum(CakeDiagnostics diagnostics) {
  return static_cast<intptr_t>(unwrap(diagnostics).records.size());
}

CakeDiagnosticRecord cakeDiagnosticsGet(CakeDiagnostics diagnostics, intptr_t index) {
  return toC(unwrap(diagnostics).records[index]);
}

CakeDiagnosticRecord cakeDiagnosticsGetNote(CakeDiagnostics diagnostics, intptr_t index,
                                            intptr_t noteIndex) {
  return toC(unwrap(diagnostics).records[index].notes[noteIndex]);
}
