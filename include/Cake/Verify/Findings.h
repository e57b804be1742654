//===- Findings.h - verifier findings and their machine form ----*- C++ -*-===//
//
// A finding is an error at an op whose message starts with a stable rule id in brackets
// ("'cake.mbarrier.wait' op [mbarrier.no-arrive] ..."), with notes at the related ops and a last
// note "fix: ..." with a concrete hint. The rule id, the hint and the op name also travel as the
// diagnostic's metadata (a dictionary {rule, hint, op}), which the JSON handler reads.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_VERIFY_FINDINGS_H
#define CAKE_VERIFY_FINDINGS_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>

namespace mlir::cake {

/// One rule id of include/Cake/Verify/Rules.def: the pass that reports it (cake-verify-<pass>)
/// and what it finds (markdown).
struct RuleInfo {
  llvm::StringLiteral id, pass, finding;
};
/// Every rule id CAKE's verify passes report, in Rules.def's order.
llvm::ArrayRef<RuleInfo> getVerifierRules();
/// The entry of `id`; null for ids that are not CAKE's own (loaded `rule.*`, `learned.*`).
const RuleInfo *lookupVerifierRule(llvm::StringRef id);
/// The list as JSON ({"version": 1, "rules": [{id, pass, finding}]}) or as a markdown table.
void printVerifierRules(llvm::raw_ostream &os, bool markdown);

/// Starts a finding of `rule` at `op`: "'<op>' op [<rule>] " followed by what the caller streams.
/// Attach related notes, then finish with attachFix.
InFlightDiagnostic emitFinding(Operation *op, llvm::StringRef rule);

/// The same as a warning: a finding that is suspicious rather than certainly wrong (the pass still
/// succeeds when it has only warnings).
InFlightDiagnostic emitFindingWarning(Operation *op, llvm::StringRef rule);

/// Says, as a remark at the kernel, that the check `what` gave no judgement and why (a run with
/// more access pairs than it compares): the kernel passes that check unexamined, and tools and
/// agents can tell it from a kernel the check cleared. (A path the simulation cannot decide stays
/// silent: data-dependent control flow is common, and the remark would be noise on most kernels.)
void remarkNotJudged(Operation *kernel, llvm::StringRef what, llvm::StringRef why);

/// Adds the fix hint as the finding's last note (at `loc`) and records rule, hint and op name in
/// the diagnostic's metadata.
void attachFix(InFlightDiagnostic &diag, Operation *op, llvm::StringRef rule,
               const llvm::Twine &hint);

/// The prefix of the fix note.
inline constexpr llvm::StringLiteral kFixNotePrefix = "fix: ";

/// What a finding carries besides its text; empty strings for diagnostics that are not findings.
struct FindingInfo {
  std::string rule, hint, op;
};

/// Reads the rule id, hint and op name a finding recorded in its diagnostic's metadata.
FindingInfo getFindingInfo(Diagnostic &diag);

/// The JSON record of a diagnostic is versioned: {"schema": "cake-diagnostic", "version": 1, ...}
/// (docs/Verification.md describes the fields; a change of their meaning bumps the version).
inline constexpr llvm::StringLiteral kDiagnosticSchema = "cake-diagnostic";
inline constexpr int64_t kDiagnosticSchemaVersion = 1;

/// One diagnostic as a record: schema, version, rule, severity, file, line, col, op, message,
/// notes [{file, line, col, message}] and hint. Diagnostics that are not findings (op verifier and
/// parser errors) have a null rule and hint; op verifier errors still name their op.
llvm::json::Object getDiagnosticRecord(Diagnostic &diag);

/// Renders one diagnostic's record as one line of JSON.
void printDiagnosticAsJson(Diagnostic &diag, llvm::raw_ostream &os);

/// Diagnostics collected into one SARIF 2.1.0 log (for code-scanning tools and editors): a
/// result per diagnostic (ruleId, level, message with the fix hint, location, the notes as
/// related locations, op and hint as properties) and the rules they name, with their
/// descriptions from Rules.def. Printed once, when the tool is done.
class SarifLog {
public:
  SarifLog(std::string toolName, std::string toolVersion)
      : toolName(std::move(toolName)), toolVersion(std::move(toolVersion)) {}
  void add(Diagnostic &diag);
  void print(llvm::raw_ostream &os) const;

private:
  std::string toolName, toolVersion;
  llvm::json::Array results;
  std::set<std::string> ruleIds;
};

/// How a tool prints diagnostics: its `--cake-diagnostics` option (cake-opt, cake-translate).
enum class DiagnosticsFormat { Text, Json, Sarif };

/// The option's values, the same in every tool.
llvm::cl::ValuesClass getDiagnosticsFormatValues();

/// A tool's machine-readable diagnostics: with Json each diagnostic is one line on `os` as it
/// comes, with Sarif they are collected and `finish` prints the log; with Text nothing changes.
class DiagnosticsPrinter {
public:
  DiagnosticsPrinter(DiagnosticsFormat format, std::string tool, llvm::raw_ostream &os);
  /// Prints or collects `diag`; true unless the format is Text (MLIR's handler prints it).
  bool handle(Diagnostic &diag);
  /// Makes `context` send every diagnostic to handle() first (registered after MLIR's handler).
  void attach(MLIRContext *context);
  /// Prints the SARIF log (with Sarif; nothing otherwise).
  void finish();

private:
  DiagnosticsFormat format;
  llvm::raw_ostream &os;
  SarifLog sarif;
};

} // namespace mlir::cake

#endif // CAKE_VERIFY_FINDINGS_H
