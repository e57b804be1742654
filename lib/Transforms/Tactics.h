//===- Tactics.h - one implementation per tactic, for its pass and its transform op -*- C++ -*-===//
//
// Each tactic is one function, called by its pass (cake-tactic-*, Passes.td) and by its transform
// op (transform.cake.*, TacticOps.td), so the two cannot drift apart. A function rewrites every
// cake.kernel in or at `root`, or emits "[tactic.not-applicable] ..." errors (with notes) and
// fails; the pass turns that into a pass failure, the transform op into a silenceable failure
// carrying the same diagnostics and, should the tactic have changed a kernel before it refused,
// that kernel back as it was.
//
// Ops a tactic erases go through `rewriter`, so that the transform interpreter's tracking
// listener drops them from its handles; the passes give an IRRewriter.
//
// The option checks are separate functions returning "" or the reason (the message's text after
// "cake-tactic-<name>: "): the tactic reports it as not applicable (the passes' messages, which
// the harness and tests read), the transform op's verifier as an error of the script.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_LIB_TRANSFORMS_TACTICS_H
#define CAKE_LIB_TRANSFORMS_TACTICS_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::cake {

std::string pipelineStagesOptionsError(int64_t stages);
LogicalResult applyPipelineStagesTactic(RewriterBase &rewriter, Operation *root, int64_t stages);

std::string padOptionsError(int64_t elements);
LogicalResult applyPadTactic(RewriterBase &rewriter, Operation *root, int64_t elements);

std::string swizzleOptionsError(int64_t bytes);
LogicalResult applySwizzleTactic(RewriterBase &rewriter, Operation *root, int64_t bytes);

LogicalResult applyStageRowsTactic(RewriterBase &rewriter, Operation *root);

std::string vectorizeOptionsError(int64_t width);
LogicalResult applyVectorizeTactic(RewriterBase &rewriter, Operation *root, int64_t width);

LogicalResult applyContractTactic(RewriterBase &rewriter, Operation *root);

std::string indexWidthOptionsError(int64_t bits);
LogicalResult applyIndexWidthTactic(RewriterBase &rewriter, Operation *root, int64_t bits);

LogicalResult applyProgrammaticLaunchTactic(RewriterBase &rewriter, Operation *root);

/// cake-tactic-tensorize's options (Passes.td documents each; the defaults are the pass's).
struct TensorizeTacticOptions {
  int64_t tile = 64, rows = 16;
  bool prefetch = true;
  int64_t buffers = 1;
  bool fastpath = true;
  std::string mma = "sync";
  int64_t unroll = 1;
};
std::string tensorizeOptionsError(const TensorizeTacticOptions &options);
LogicalResult applyTensorizeTactic(RewriterBase &rewriter, Operation *root,
                                   const TensorizeTacticOptions &options);

/// Emits "[tactic.not-applicable] <tactic>: <why>" at `root` and fails: how every tactic reports
/// an option its check refused.
LogicalResult reportBadOption(Operation *root, StringRef tactic, StringRef why);

} // namespace mlir::cake

#endif // CAKE_LIB_TRANSFORMS_TACTICS_H
