//===- VerifyTarget.cpp - each op's minimum target ------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/Target.h"
#include "Cake/Verify/Findings.h"
#include "Cake/Verify/Passes.h"
#include "KernelCheck.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYTARGETPASS
#include "Cake/Verify/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
struct CakeVerifyTargetPass
    : KernelCheckPass<CakeVerifyTargetPass, cake::impl::CakeVerifyTargetPassBase> {
  bool verifyKernel(KernelOp kernel) {
    bool ok = true;
    StringRef target = kernel.getTarget();
    bool noted = false;
    auto report = [&](Operation *op, const TargetRequirementInfo &req) {
      ok = false;
      InFlightDiagnostic diag = emitFinding(op, req.rule)
                                << "expected a target with " << req.what << " ("
                                << joinTargetsWith(req.features) << "), got " << target;
      if (!noted) // once per kernel: the notes would all point at the same line
        diag.attachNote(kernel.getLoc()) << "the kernel's target is set here";
      noted = true;
      std::string first = joinTargetsWith(req.features);
      first = first.substr(0, first.find(','));
      std::string hint = "set target = \"" + first + "\" on @" + kernel.getSymName().str() +
                         ", or use an op that " + target.str() + " has";
      attachFix(diag, op, req.rule, hint);
    };
    // Pre-order, so the kernel's own needs (cluster, TMA parameters) come first.
    kernel.walk<WalkOrder::PreOrder>([&](TargetRequirementOpInterface op) {
      SmallVector<TargetRequirement, 2> requirements;
      op.getTargetRequirements(requirements);
      for (TargetRequirement requirement : requirements) {
        const TargetRequirementInfo &info = getTargetRequirementInfo(requirement);
        if (!targetHas(target, info.features))
          report(op, info);
      }
    });
    return ok;
  }
};
} // namespace
