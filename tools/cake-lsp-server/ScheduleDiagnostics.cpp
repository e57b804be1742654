//===- ScheduleDiagnostics.cpp - cake-verify findings as LSP data ---------===//
#include "ScheduleDiagnostics.h"

#include "Cake/IR/ParseGuard.h"
#include "Cake/Pipelines/Registration.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::lsp;
using llvm::json::Array;
using llvm::json::Object;
using JsonValue = llvm::json::Value;

namespace {

/// The document's lines, to turn a 1-based line/column into an LSP range over the word there.
class Lines {
public:
  // Values built from a StringRef do not copy it: every string that leaves this file is a
  // std::string.
  explicit Lines(llvm::StringRef text) { text.split(lines, '\n'); }

  /// From (line, col) to the end of the word that starts there (at least one character).
  JsonValue range(int64_t line, int64_t col) const {
    int64_t l = std::max<int64_t>(line - 1, 0), c = std::max<int64_t>(col - 1, 0);
    int64_t end = c + 1;
    if (l < static_cast<int64_t>(lines.size())) {
      llvm::StringRef rest = lines[l].drop_front(std::min<size_t>(c, lines[l].size()));
      size_t word = rest.find_first_of(" \t(){}[],:<>\"");
      end = c + std::max<int64_t>(1, word == llvm::StringRef::npos ? rest.size() : word);
    }
    return Object{{"start", Object{{"line", l}, {"character", c}}},
                  {"end", Object{{"line", l}, {"character", end}}}};
  }

  llvm::StringRef indentOf(int64_t line) const {
    if (line < 0 || line >= static_cast<int64_t>(lines.size()))
      return "";
    llvm::StringRef text = lines[line];
    return text.take_front(text.find_first_not_of(" \t") == llvm::StringRef::npos
                               ? text.size()
                               : text.find_first_not_of(" \t"));
  }

private:
  llvm::SmallVector<llvm::StringRef> lines;
};

/// One finding's record (getDiagnosticRecord) as an LSP Diagnostic.
JsonValue toLspDiagnostic(const Object &record, llvm::StringRef uri, const Lines &lines) {
  auto at = [&](const Object &where) {
    return lines.range(where.getInteger("line").value_or(1), where.getInteger("col").value_or(1));
  };
  Array related;
  if (const Array *notes = record.getArray("notes"))
    for (const JsonValue &note : *notes)
      if (const Object *n = note.getAsObject())
        related.push_back(Object{{"location", Object{{"uri", uri.str()}, {"range", at(*n)}}},
                                 {"message", n->getString("message").value_or("").str()}});
  bool warning = record.getString("severity") == "warning";
  Object diagnostic{{"range", at(record)},
                    {"severity", warning ? 2 : 1},
                    {"source", kFindingSource},
                    {"message", record.getString("message").value_or("").str()},
                    {"relatedInformation", std::move(related)}};
  if (std::optional<llvm::StringRef> rule = record.getString("rule"))
    diagnostic["code"] = rule->str();
  if (std::optional<llvm::StringRef> hint = record.getString("hint"))
    diagnostic["data"] = Object{{"hint", hint->str()}};
  return std::move(diagnostic);
}

} // namespace

Array mlir::cake::lsp::scheduleDiagnostics(llvm::StringRef uri, llvm::StringRef text) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, uri), llvm::SMLoc());

  // Parse and op-verifier errors are MLIR's server's to report: a document that has them gets
  // no findings (cake-verify needs verified IR).
  std::vector<Object> records;
  bool parsing = true;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (!parsing && diag.getSeverity() != DiagnosticSeverity::Remark &&
        diag.getSeverity() != DiagnosticSeverity::Note)
      records.push_back(getDiagnosticRecord(diag));
    return success();
  });
  // Except a construct MLIR's parser would crash on: the relay never lets MLIR's server see it
  // (LspProxy.cpp), so the finding here is the document's one diagnostic.
  parsing = !findUnparseableInput(text);
  OwningOpRef<ModuleOp> module = parseGuardedSourceFile(sourceMgr, ParserConfig(&context));
  if (!module && parsing)
    return {};
  parsing = false;
  if (module) {
    PassManager pm(&context, ModuleOp::getOperationName());
    pm.enableVerifier(false);
    buildVerifyPipeline(pm);
    (void)pm.run(*module); // A run with findings fails; the findings are what we want.
  }

  Lines lines(text);
  Array diagnostics;
  for (const Object &record : records)
    diagnostics.push_back(toLspDiagnostic(record, uri, lines));
  return diagnostics;
}

Array mlir::cake::lsp::fixHintActions(llvm::StringRef uri, llvm::StringRef text,
                                      const Array &diagnostics) {
  Lines lines(text);
  Array actions;
  for (const JsonValue &entry : diagnostics) {
    const Object *diagnostic = entry.getAsObject();
    if (!diagnostic || diagnostic->getString("source") != kFindingSource)
      continue;
    const Object *data = diagnostic->getObject("data");
    std::optional<llvm::StringRef> hint = data ? data->getString("hint") : std::nullopt;
    const Object *range = diagnostic->getObject("range");
    const Object *start = range ? range->getObject("start") : nullptr;
    std::optional<int64_t> line = start ? start->getInteger("line") : std::nullopt;
    if (!hint || hint->empty() || !line)
      continue;
    Object insertAt{{"line", *line}, {"character", 0}};
    Object edit{{"range", Object{{"start", Object(insertAt)}, {"end", Object(insertAt)}}},
                {"newText", (lines.indentOf(*line) + "// " + kFixNotePrefix + *hint + "\n").str()}};
    std::string rule = diagnostic->getString("code").value_or("cake-verify").str();
    actions.push_back(
        Object{{"title", "Write the fix hint of [" + rule + "] above the op"},
               {"kind", "quickfix"},
               {"diagnostics", Array{entry}},
               {"edit", Object{{"changes", Object{{uri.str(), Array{std::move(edit)}}}}}}});
  }
  return actions;
}
