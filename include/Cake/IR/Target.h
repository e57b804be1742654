//===- Target.h - The target table and the per-feature requirement check --===//
//
// Every fact about a target (which chips exist, what each has, its shared-memory limit, its PTX
// version) comes from Targets.def through these functions; nothing else spells a chip name.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_IR_TARGET_H
#define CAKE_IR_TARGET_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::cake {

/// What a target has. Groups follow the hardware generations that introduced them.
enum TargetFeature : unsigned {
  FeatureAmpere = 1u << 0,     ///< cp.async, ldmatrix, mma.sync
  FeatureHopper = 1u << 1,     ///< TMA, mbarrier transaction counts, clusters, elect, stmatrix
  FeatureWgmma = 1u << 2,      ///< wgmma (arch-specific: sm_90a only)
  FeatureSetMaxNReg = 1u << 3, ///< setmaxnreg (register reallocation between warp roles)
  FeatureTcgen05 = 1u << 4,    ///< tcgen05 and tensor memory
  FeatureClusterLaunchControl = 1u << 5, ///< clusterlaunchcontrol (persistent scheduling)
};

struct TargetInfo {
  llvm::StringRef name;
  unsigned sm;
  unsigned features;
  int64_t maxDynamicSharedBytes;
  int64_t sharedBytesPerSm;
  int64_t maxBlocksPerSm;
  int64_t maxThreadsPerSm;
  unsigned ptxVersion;
};

/// Every target, in Targets.def's order.
llvm::ArrayRef<TargetInfo> getTargetTable();
/// The target called `name`, or null.
const TargetInfo *lookupTarget(llvm::StringRef name);
/// Whether `target` is known and has every bit of `features`.
bool targetHas(llvm::StringRef target, unsigned features);
/// "sm_90, sm_90a, sm_100a": the targets with `features` (all targets for 0), joined by `sep`.
std::string joinTargetsWith(unsigned features, llvm::StringRef sep = ", ");

/// Fails with "`what` needs T1 or T2, got T" unless the kernel around `op` targets a chip with
/// `features` (ops outside a kernel pass: the kernel's verifier reports them).
LogicalResult requireTargetFeature(Operation *op, unsigned features, llvm::StringRef what);

} // namespace mlir::cake

#endif // CAKE_IR_TARGET_H
