//===- Rules.h - verifier rules loaded as data at run time ------*- C++ -*-===//
//
// A rule file is MLIR in the PDL dialect: a module of `pdl.pattern @<name>` ops (written by hand
// or produced from PDLL by `mlir-pdll rule.pdll -x mlir`). Each pattern is one rule and runs as
// the pass `cake-rule-<name>`; its rewrite does not rewrite but reports, through the native
// rewrite `cakeReport(op, "rule-id", "message", "hint")`. docs/Verification.md documents the
// format and the native constraints rules may call.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_VERIFY_RULES_H
#define CAKE_VERIFY_RULES_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir::cake {

/// Parses and checks the rule file at `path` (in a scratch context built from `registry`, which
/// must hold the dialects whose ops rules may name) and registers a `cake-rule-<name>` pass for
/// each of its patterns. Prints a diagnostic naming the file and line and fails when the file
/// does not parse, names an unknown op or native function, or rewrites.
LogicalResult loadRuleFile(StringRef path, const DialectRegistry &registry);

/// The passes of every rule loaded so far, in load order (cake-verify runs them after its own).
std::vector<std::function<std::unique_ptr<Pass>()>> getLoadedRulePasses();

/// The rule files shipped beside a tool: share/cake/rules{,/learned}/*.{mlir,pdl} next to the bin/
/// folder holding `executable` (build tree or install prefix), sorted. What `cake-opt
/// --cake-verify` loads unless told not to, and what cake-lsp-server loads.
std::vector<std::string> getShippedRuleFiles(StringRef executable);

/// The names of the native constraints and rewrites rule files may call.
ArrayRef<StringRef> getRuleNativeFunctions();

} // namespace mlir::cake

#endif // CAKE_VERIFY_RULES_H
