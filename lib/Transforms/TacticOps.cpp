//===- TacticOps.cpp - the tactics as Transform-dialect ops ----------------===//
//
// Each transform.cake.* op calls its tactic's function (Tactics.h), the one its pass calls. The
// passes rely on the pass manager for "a failed tactic leaves nothing behind" (a failed pass's
// output is discarded); a transform script goes on with the payload, so runTactic keeps that
// promise itself: it captures the tactic's errors for the silenceable failure and gives every
// kernel the tactic changed before refusing its old body and attributes back (stage-rows and
// tensorize check the shared memory after rewriting; pipeline-stages rewrites one pipeline
// before it checks the next).
//
//===----------------------------------------------------------------------===//
#include "Cake/Transforms/TacticOps.h"
#include "Cake/IR/CakeOps.h"
#include "Tactics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;
using namespace mlir::cake;

#define GET_OP_CLASSES
#include "Cake/Transforms/TacticOps.cpp.inc"

namespace {

/// Gives `kernel` the body, properties and attributes of `copy` (its clone from before the
/// tactic). The ops dropped go through `rewriter`, so that handles to them are dropped too.
void restore(RewriterBase &rewriter, KernelOp kernel, Operation *copy) {
  for (auto [region, saved] : llvm::zip(kernel->getRegions(), copy->getRegions())) {
    region.dropAllReferences();
    while (!region.empty())
      rewriter.eraseBlock(&region.back());
    region.takeBody(saved);
  }
  kernel->copyProperties(copy->getPropertiesStorage());
  kernel->setDiscardableAttrs(copy->getDiscardableAttrDictionary());
}

/// Runs `tactic` on `target`: success, or a silenceable failure carrying the errors the tactic
/// emitted (the pass's "[tactic.not-applicable] ..." messages and their notes) with every kernel
/// in or at `target` as it was. Remarks and warnings reach the user as they do from the pass.
DiagnosedSilenceableFailure
runTactic(transform::TransformRewriter &rewriter, Operation *target,
          function_ref<LogicalResult(RewriterBase &, Operation *)> tactic) {
  struct Saved {
    KernelOp kernel;
    OperationFingerPrint print;
    Operation *copy;
  };
  SmallVector<Saved> saved;
  target->walk([&](KernelOp kernel) {
    saved.push_back({kernel, OperationFingerPrint(kernel), kernel->clone()});
  });

  SmallVector<Diagnostic> errors;
  LogicalResult applied = failure();
  {
    ScopedDiagnosticHandler capture(target->getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error)
        return failure(); // not handled here: on to the next handler
      errors.push_back(std::move(diag));
      return success();
    });
    applied = tactic(rewriter, target);
  }

  if (failed(applied))
    for (Saved &s : saved)
      if (OperationFingerPrint(s.kernel) != s.print)
        restore(rewriter, s.kernel, s.copy);
  for (Saved &s : saved)
    s.copy->erase();

  if (succeeded(applied)) {
    // No tactic emits an error and succeeds; should one, the error is not lost.
    for (Diagnostic &diag : errors)
      target->getContext()->getDiagEngine().emit(std::move(diag));
    return DiagnosedSilenceableFailure::success();
  }
  if (errors.empty())
    errors.emplace_back(target->getLoc(), DiagnosticSeverity::Error)
        << "the tactic failed without a diagnostic";
  return DiagnosedSilenceableFailure::silenceableFailure(std::move(errors));
}

/// The verifier of a tactic op's attributes: the tactic's own option check, as an error of the
/// script.
LogicalResult verifyOptions(Operation *op, const std::string &why) {
  if (why.empty())
    return success();
  return op->emitOpError() << why;
}

/// ODS gives I64Attr values as uint64_t; the tactics take the signed value the attribute holds.
int64_t signedValue(uint64_t value) { return static_cast<int64_t>(value); }

} // namespace

//===----------------------------------------------------------------------===//
// The ops: each applies its tactic (Tactics.h) and checks its attributes with the tactic's check.
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
CakePipelineStagesTacticOp::applyToOne(transform::TransformRewriter &rewriter, Operation *target,
                                       transform::ApplyToEachResultList &,
                                       transform::TransformState &) {
  return runTactic(rewriter, target, [&](RewriterBase &r, Operation *root) {
    return applyPipelineStagesTactic(r, root, signedValue(getStages()));
  });
}
LogicalResult CakePipelineStagesTacticOp::verify() {
  return verifyOptions(*this, pipelineStagesOptionsError(signedValue(getStages())));
}

DiagnosedSilenceableFailure CakePadTacticOp::applyToOne(transform::TransformRewriter &rewriter,
                                                        Operation *target,
                                                        transform::ApplyToEachResultList &,
                                                        transform::TransformState &) {
  return runTactic(rewriter, target, [&](RewriterBase &r, Operation *root) {
    return applyPadTactic(r, root, signedValue(getElements()));
  });
}
LogicalResult CakePadTacticOp::verify() {
  return verifyOptions(*this, padOptionsError(signedValue(getElements())));
}

DiagnosedSilenceableFailure
CakeSwizzleTacticOp::applyToOne(transform::TransformRewriter &rewriter, Operation *target,
                                transform::ApplyToEachResultList &, transform::TransformState &) {
  return runTactic(rewriter, target, [&](RewriterBase &r, Operation *root) {
    return applySwizzleTactic(r, root, signedValue(getBytes()));
  });
}
LogicalResult CakeSwizzleTacticOp::verify() {
  return verifyOptions(*this, swizzleOptionsError(signedValue(getBytes())));
}

DiagnosedSilenceableFailure
CakeStageRowsTacticOp::applyToOne(transform::TransformRewriter &rewriter, Operation *target,
                                  transform::ApplyToEachResultList &,
                                  transform::TransformState &) {
  return runTactic(rewriter, target, applyStageRowsTactic);
}

DiagnosedSilenceableFailure
CakeVectorizeTacticOp::applyToOne(transform::TransformRewriter &rewriter, Operation *target,
                                  transform::ApplyToEachResultList &,
                                  transform::TransformState &) {
  return runTactic(rewriter, target, [&](RewriterBase &r, Operation *root) {
    return applyVectorizeTactic(r, root, signedValue(getWidth()));
  });
}
LogicalResult CakeVectorizeTacticOp::verify() {
  return verifyOptions(*this, vectorizeOptionsError(signedValue(getWidth())));
}

DiagnosedSilenceableFailure
CakeContractTacticOp::applyToOne(transform::TransformRewriter &rewriter, Operation *target,
                                 transform::ApplyToEachResultList &, transform::TransformState &) {
  return runTactic(rewriter, target, applyContractTactic);
}

DiagnosedSilenceableFailure
CakeIndexWidthTacticOp::applyToOne(transform::TransformRewriter &rewriter, Operation *target,
                                   transform::ApplyToEachResultList &,
                                   transform::TransformState &) {
  return runTactic(rewriter, target, [&](RewriterBase &r, Operation *root) {
    return applyIndexWidthTactic(r, root, signedValue(getBits()));
  });
}
LogicalResult CakeIndexWidthTacticOp::verify() {
  return verifyOptions(*this, indexWidthOptionsError(signedValue(getBits())));
}

DiagnosedSilenceableFailure CakeProgrammaticLaunchTacticOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &, transform::TransformState &) {
  return runTactic(rewriter, target, applyProgrammaticLaunchTactic);
}

namespace {
TensorizeTacticOptions tensorizeOptions(CakeTensorizeTacticOp op) {
  return {signedValue(op.getTile()),    signedValue(op.getRows()),   op.getPrefetch(),
          signedValue(op.getBuffers()), op.getFastpath(),            op.getMma().str(),
          signedValue(op.getUnroll())};
}
} // namespace

DiagnosedSilenceableFailure
CakeTensorizeTacticOp::applyToOne(transform::TransformRewriter &rewriter, Operation *target,
                                  transform::ApplyToEachResultList &,
                                  transform::TransformState &) {
  TensorizeTacticOptions options = tensorizeOptions(*this);
  return runTactic(rewriter, target, [&](RewriterBase &r, Operation *root) {
    return applyTensorizeTactic(r, root, options);
  });
}
LogicalResult CakeTensorizeTacticOp::verify() {
  return verifyOptions(*this, tensorizeOptionsError(tensorizeOptions(*this)));
}

//===----------------------------------------------------------------------===//
// The extension
//===----------------------------------------------------------------------===//

namespace {
class CakeTacticsExtension : public transform::TransformDialectExtension<CakeTacticsExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CakeTacticsExtension)
  using Base::Base;

  void init() {
    // What the tactics create in payload that may not have it yet (the passes' dependent
    // dialects, plus scf for the loops stage-rows and tensorize build).
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<vector::VectorDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "Cake/Transforms/TacticOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::cake::registerTacticTransformOps(DialectRegistry &registry) {
  registry.addExtensions<CakeTacticsExtension>();
}
