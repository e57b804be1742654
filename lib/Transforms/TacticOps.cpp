//===- TacticOps.cpp - the tactics' passes and transform ops ---------------===//
//
// What every tactic's pass and op share; the per-tactic glue is generated from its record
// (TacticBase.td) into TacticOps.cpp.inc, included below, which uses runTacticOp,
// verifyTacticOptions and TacticPass. The pass and the op run the same `applyTactic`.
//
// The passes rely on the pass manager for "a failed tactic leaves nothing behind" (a failed pass's
// output is discarded); a transform script goes on with the payload, so runTactic keeps that
// promise itself: it captures the tactic's errors for the silenceable failure and gives every
// kernel the tactic changed before refusing its old body and attributes back (stage-rows and
// tensorize check the shared memory after rewriting; pipeline-stages rewrites one pipeline
// before it checks the next).
//
//===----------------------------------------------------------------------===//
#include "Cake/Transforms/TacticOps.h"
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/MemoryAccess.h"
#include "Cake/IR/Target.h"
#include "TacticUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;
using namespace mlir::cake;

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

} // namespace

namespace mlir::cake {
namespace {

/// A tactic op's applyToOne: the tactic with the op's options, under runTactic's promise.
template <typename TacticOp>
DiagnosedSilenceableFailure runTacticOp(transform::TransformRewriter &rewriter, Operation *target,
                                        const typename TacticOp::Options &options) {
  return runTactic(rewriter, target, [&](RewriterBase &r, Operation *root) {
    return TacticOp::applyTactic(r, root, options);
  });
}

/// A tactic op's verifier: the tactic's own option check, as an error of the script.
LogicalResult verifyTacticOptions(Operation *op, const std::string &why) {
  if (why.empty())
    return success();
  return op->emitOpError() << why;
}

} // namespace

/// A tactic's pass, on the base mlir-tblgen generates from the same record (its options are
/// members named as in the record, which TacticOp::optionsOfPass reads: hence the friend). Bad
/// options are a "[tactic.not-applicable] cake-tactic-<name>: <why>" error at the root, the
/// message the harness and the tests read; otherwise the pass fails where the tactic refuses.
///
/// Outside the anonymous namespace: each op's generated definitions instantiate it explicitly,
/// which must happen in its own namespace.
template <typename TacticOp, template <typename> class PassBase>
struct TacticPass : PassBase<TacticPass<TacticOp, PassBase>> {
  using Generated = PassBase<TacticPass<TacticOp, PassBase>>;
  using Generated::Generated;
  friend TacticOp;

  void runOnOperation() override {
    Operation *root = this->getOperation();
    typename TacticOp::Options options = TacticOp::optionsOfPass(*this);
    if (std::string why = TacticOp::checkOptions(options); !why.empty()) {
      emitError(root->getLoc()) << "[tactic.not-applicable] " << TacticOp::passArgument << ": "
                                << why;
      return this->signalPassFailure();
    }
    IRRewriter rewriter(&this->getContext());
    if (failed(TacticOp::applyTactic(rewriter, root, options)))
      this->signalPassFailure();
  }
};
} // namespace mlir::cake

// Every tactic op's members and its pass (TacticBase.td writes them, in namespace mlir::cake).
#define GET_OP_CLASSES
#include "Cake/Transforms/TacticOps.cpp.inc"

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
