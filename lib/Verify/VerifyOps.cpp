//===- VerifyOps.cpp - kernels use only ops CAKE reasons about ------------===//
//
// The allow-list: an op the verifier, the cost model and the manifest do not model is an escape
// hatch (inline PTX, raw intrinsics, timers, atomics), and a candidate could use it to do work
// nobody checks or to observe its evaluator. See Passes.td for the rules.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYOPSPASS
#include "Cake/Verify/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
/// Dialects whose ops the verifier, the cost model and the lowering model.
constexpr llvm::StringLiteral kModelledDialects[] = {"cake", "arith", "math", "scf",
                                                      "vector", "index", "ub"};
/// Dialects that reach the hardware directly, below what CAKE models.
constexpr llvm::StringLiteral kIntrinsicDialects[] = {"llvm", "nvvm", "nvgpu", "gpu", "rocdl"};

/// The rules classify() reports, which `allow` may name.
constexpr llvm::StringLiteral kAllowableRules[] = {"ops.inline-asm", "ops.timer", "ops.atomic",
                                                   "ops.raw-intrinsic", "ops.foreign"};

/// The rule an op outside the modelled dialects breaks, and what it is, for the message.
std::pair<StringRef, StringRef> classify(Operation *op) {
  StringRef name = op->getName().getStringRef();
  StringRef dialect = op->getName().getDialectNamespace();
  if (name == "llvm.inline_asm")
    return {"ops.inline-asm", "inline assembly"};
  if (name.contains("globaltimer") || name.contains("sreg.clock"))
    return {"ops.timer", "a clock read"};
  if (name == "llvm.atomicrmw" || name == "llvm.cmpxchg" || name.contains("atomic") ||
      (dialect == "nvvm" && (name.starts_with("nvvm.red") || name.starts_with("nvvm.atom"))))
    return {"ops.atomic", "an atomic memory operation"};
  if (llvm::is_contained(kIntrinsicDialects, dialect))
    return {"ops.raw-intrinsic", "a raw intrinsic"};
  return {"ops.foreign", "an op CAKE does not model"};
}

struct CakeVerifyOpsPass : cake::impl::CakeVerifyOpsPassBase<CakeVerifyOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    markAllAnalysesPreserved(); // A check changes no IR.
    llvm::StringSet<> allowed;
    for (const std::string &entry : allow) {
      // A misspelt rule id would allow nothing, silently.
      StringRef name(entry);
      if ((name.starts_with("ops.") && !llvm::is_contained(kAllowableRules, name)) ||
          !name.contains('.')) {
        getOperation()->emitError()
            << "cake-verify-ops: allow entry '" << name << "' is neither a rule id ("
            << llvm::join(llvm::ArrayRef(kAllowableRules), ", ") << ") nor an op name (dialect.op)";
        return signalPassFailure();
      }
      allowed.insert(entry);
    }
    bool ok = true;
    auto report = [&](Operation *op, StringRef where) {
      auto [rule, what] = classify(op);
      if (allowed.contains(rule) || allowed.contains(op->getName().getStringRef()))
        return;
      ok = false;
      InFlightDiagnostic diag = emitFinding(op, rule)
                                << "expected only cake, arith, math, scf and vector ops " << where
                                << ", got " << what;
      attachFix(diag, op, rule,
                "express it with cake ops (loads, stores, reductions, barriers) or arith/math/"
                "scf/vector; if the task needs it, allow it with cake-verify{allow=" +
                    rule.str() + "}");
    };
    getOperation()->walk([&](Operation *op) {
      if (isa<ModuleOp>(op) || isa<KernelOp>(op))
        return WalkResult::advance();
      auto kernel = op->getParentOfType<KernelOp>();
      if (!kernel) {
        // Only kernels belong at module level; anything else would reach the cubin unchecked.
        if (isa<ModuleOp>(op->getParentOp()))
          report(op, "at module level (only cake.kernel)");
        return WalkResult::skip();
      }
      if (!llvm::is_contained(kModelledDialects, op->getName().getDialectNamespace()))
        report(op, "in a kernel");
      return WalkResult::advance();
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
