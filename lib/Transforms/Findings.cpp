//===- Findings.cpp - verifier findings and their JSON form ---------------===//
#include "Cake/Transforms/Findings.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::cake;

InFlightDiagnostic mlir::cake::emitFinding(Operation *op, StringRef rule) {
  // Like emitOpError, without the dump of the whole op (the notes point at what matters).
  InFlightDiagnostic diag = mlir::emitError(op->getLoc());
  diag << "'" << op->getName() << "' op [" << rule << "] ";
  return diag;
}

InFlightDiagnostic mlir::cake::emitFindingWarning(Operation *op, StringRef rule) {
  InFlightDiagnostic diag = mlir::emitWarning(op->getLoc());
  diag << "'" << op->getName() << "' op [" << rule << "] ";
  return diag;
}

void mlir::cake::attachFix(InFlightDiagnostic &diag, Operation *op, StringRef rule,
                           const Twine &hint) {
  std::string text = hint.str();
  diag.attachNote(op->getLoc()) << kFixNotePrefix << text;
  if (Diagnostic *d = diag.getUnderlyingDiagnostic()) {
    MLIRContext *ctx = op->getContext();
    NamedAttribute entries[] = {
        NamedAttribute(StringAttr::get(ctx, "hint"), StringAttr::get(ctx, text)),
        NamedAttribute(StringAttr::get(ctx, "op"),
                       StringAttr::get(ctx, op->getName().getStringRef())),
        NamedAttribute(StringAttr::get(ctx, "rule"), StringAttr::get(ctx, rule))};
    d->getMetadata().push_back(DiagnosticArgument(DictionaryAttr::get(ctx, entries)));
  }
}

/// File, line and column of the first file location inside `loc` (fused, named, call sites).
static void addLocation(llvm::json::Object &object, Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>()) {
    object["file"] = file.getFilename().str();
    object["line"] = static_cast<int64_t>(file.getLine());
    object["col"] = static_cast<int64_t>(file.getColumn());
    return;
  }
  object["file"] = nullptr;
  object["line"] = nullptr;
  object["col"] = nullptr;
}

static StringRef severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  return "error";
}

FindingInfo mlir::cake::getFindingInfo(Diagnostic &diag) {
  FindingInfo info;
  for (DiagnosticArgument &arg : diag.getMetadata()) {
    if (arg.getKind() != DiagnosticArgument::DiagnosticArgumentKind::Attribute)
      continue;
    auto dict = dyn_cast<DictionaryAttr>(arg.getAsAttribute());
    if (!dict)
      continue;
    if (auto attr = dict.getAs<StringAttr>("rule"))
      info.rule = attr.str();
    if (auto attr = dict.getAs<StringAttr>("hint"))
      info.hint = attr.str();
    if (auto attr = dict.getAs<StringAttr>("op"))
      info.op = attr.str();
  }
  return info;
}

void mlir::cake::printDiagnosticAsJson(Diagnostic &diag, llvm::raw_ostream &os) {
  llvm::json::Object record;
  std::string message = diag.str();
  FindingInfo info = getFindingInfo(diag);
  std::string rule = info.rule, hint = info.hint, opName = info.op;
  // "'<op>' op [<rule>] <text>": take the op name and the rule id out of the message.
  StringRef text = message;
  if (text.starts_with("'")) {
    size_t end = text.find("' op ", 1);
    if (end != StringRef::npos) {
      if (opName.empty())
        opName = text.substr(1, end - 1).str();
      text = text.substr(end + 5);
    }
  }
  if (text.starts_with("[")) {
    size_t end = text.find("] ");
    if (end != StringRef::npos) {
      if (rule.empty())
        rule = text.substr(1, end - 1).str();
      text = text.substr(end + 2);
    }
  }
  // Only findings have a rule id; op verifier and parser errors have none.
  record["rule"] = rule.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(rule);
  record["severity"] = severityName(diag.getSeverity()).str();
  addLocation(record, diag.getLocation());
  record["op"] = opName.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(opName);
  record["message"] = text.str();
  llvm::json::Array notes;
  for (Diagnostic &note : diag.getNotes()) {
    std::string noteText = note.str();
    // MLIR's dump of the op (mlir-print-op-on-diagnostic) is for people; the location says it.
    if (StringRef(noteText).starts_with("see current operation:"))
      continue;
    if (StringRef(noteText).starts_with(kFixNotePrefix)) {
      if (hint.empty())
        hint = StringRef(noteText).drop_front(kFixNotePrefix.size()).str();
      continue;
    }
    llvm::json::Object entry;
    addLocation(entry, note.getLocation());
    entry["message"] = noteText;
    notes.push_back(std::move(entry));
  }
  record["notes"] = std::move(notes);
  record["hint"] = hint.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(hint);
  os << llvm::json::Value(std::move(record)) << "\n";
  os.flush();
}

void mlir::cake::registerJsonDiagnosticHandler(MLIRContext *context, llvm::raw_ostream &os) {
  context->getDiagEngine().registerHandler([&os](Diagnostic &diag) {
    printDiagnosticAsJson(diag, os);
    return success();
  });
}
