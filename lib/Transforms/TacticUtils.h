//===- TacticUtils.h - what the shared-buffer tactics have in common -*- C++ -*-===//
//
// What the tactics say when they cannot apply, the shared-memory check after a rewrite, and the
// lane-strided loop the row tactics start from.
//
// cake-tactic-pad and cake-tactic-swizzle retype shared buffers one by one: each buffer either
// qualifies (and gets its new type) or has a reason not to; the kernel must still fit its target's
// shared memory; nothing retyped is "not applicable". The driver lives here, the per-tactic
// decisions (reason, new type) with the tactics.
//
//===----------------------------------------------------------------------===//
#ifndef CAKE_LIB_TRANSFORMS_TACTICUTILS_H
#define CAKE_LIB_TRANSFORMS_TACTICUTILS_H

#include "Cake/IR/CakeOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

namespace mlir::cake {

/// Retypes, in every kernel under `root`, each cake.alloc_smem whose `reason` is empty to
/// `retype(old type)`. A kernel that then exceeds its target's shared memory gets its old types
/// back and an error "[tactic.not-applicable] <tactic>: <what> needs N bytes ..."; no buffer
/// retyped anywhere is an error "[tactic.not-applicable] <tactic>: no shared buffer qualifies"
/// with a note per buffer and its reason. Fails on either error.
/// Emits "[tactic.not-applicable] <tactic>: no <what> qualifies" at `root` with a note per
/// (location, reason) and returns failure: what a tactic says when nothing in the IR qualifies.
LogicalResult reportNothingQualifies(Operation *root, llvm::StringRef tactic, llvm::StringRef what,
                                     llvm::ArrayRef<std::pair<Location, std::string>> reasons);

/// Fails with "[tactic.not-applicable] <tactic>: <what> needs N bytes of shared memory, over the
/// M bytes of <target>" at `kernel` when its shared memory exceeds its target's limit.
LogicalResult checkSharedMemoryLimit(KernelOp kernel, llvm::StringRef tactic, llvm::StringRef what);

class ThreadModel;

/// Why `loop` is not the lane-strided loop the row tactics (stage-rows, tensorize) start from,
/// `scf.for %k = cake.lane_id to %n step 32` with `%n` the same in every thread ("" when it is).
std::string laneStridedLoopReason(ThreadModel &model, scf::ForOp loop);

LogicalResult retypeSharedBuffers(Operation *root, llvm::StringRef tactic, llvm::StringRef what,
                                  llvm::function_ref<std::string(AllocSmemOp)> reason,
                                  llvm::function_ref<SmemType(SmemType)> retype);

} // namespace mlir::cake

#endif // CAKE_LIB_TRANSFORMS_TACTICUTILS_H
