//===- Target.h - The target table and the per-feature requirement check --===//
//
// Every fact about a target (which chips exist, what each has, its shared-memory limit, its PTX
// version) comes from Targets.def through these functions; nothing else spells a chip name.
// What each op needs from a target comes from TargetRequirements.def and the ops' ODS traits.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_IR_TARGET_H
#define CAKE_IR_TARGET_H

#include "mlir/Support/LLVM.h"
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

/// What an op can need from its kernel's target (TargetRequirements.def). Ops state theirs in ODS
/// (`CakeRequires<"Tma">`, or CakeTargetRequirementOpInterface where it depends on attributes);
/// cake-verify-target is the one checker, and the lowering pipeline runs it first.
enum class TargetRequirement : unsigned {
#define CAKE_REQUIREMENT(name, rule, what, features) name,
#include "Cake/IR/TargetRequirements.def"
};

struct TargetRequirementInfo {
  /// The rule id of the finding (Cake/Verify/Rules.def).
  llvm::StringRef rule;
  /// The feature in words.
  llvm::StringRef what;
  /// The TargetFeature bits a target must have.
  unsigned features;
};

/// The table entry of `requirement`.
const TargetRequirementInfo &getTargetRequirementInfo(TargetRequirement requirement);

} // namespace mlir::cake

#endif // CAKE_IR_TARGET_H
