//===- VerifyTarget.cpp - each op's minimum target ------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/Target.h"
#include "Cake/Transforms/Findings.h"
#include "Cake/Transforms/Passes.h"

#include "llvm/ADT/StringSwitch.h"

namespace mlir::cake {
#define GEN_PASS_DEF_CAKEVERIFYTARGETPASS
#include "Cake/Transforms/Passes.h.inc"
} // namespace mlir::cake

using namespace mlir;
using namespace mlir::cake;

namespace {
/// A feature (TargetFeature bits of Cake/IR/Target.h) and its rule id.
struct Requirement {
  StringRef rule;
  StringRef feature;
  unsigned features;
};

/// The requirement of `op`, if it has one. Ops of later extensions are matched by name, so the
/// table covers them before their classes exist.
std::optional<Requirement> getRequirement(Operation *op) {
  if (isa<TmaLoadOp>(op))
    return Requirement{"target.tma", "TMA copies", FeatureHopper};
  if (isa<MbarrierArriveExpectTxOp>(op))
    return Requirement{"target.mbarrier-tx", "mbarrier transaction counts", FeatureHopper};
  if (isa<MbarrierWaitOp>(op))
    return Requirement{"target.mbarrier-try-wait", "mbarrier.try_wait.parity", FeatureHopper};
  if (isa<FenceMbarrierInitOp>(op))
    return Requirement{"target.fence-mbarrier-init", "fence.mbarrier_init", FeatureHopper};
  if (isa<FenceProxyAsyncOp>(op))
    return Requirement{"target.fence-proxy-async", "fence.proxy.async", FeatureHopper};
  if (isa<ElectOneOp>(op))
    return Requirement{"target.elect", "elect.sync", FeatureHopper};
  if (isa<PipelineCreateOp, PipelineProducerAcquireOp, PipelineProducerCommitOp,
          PipelineConsumerWaitOp, PipelineConsumerReleaseOp>(op))
    return Requirement{"target.pipeline", "TMA pipelines (mbarrier transaction counts)",
                       FeatureHopper};
  if (isa<ClusterIdOp, ClusterBlockIdOp>(op))
    return Requirement{"target.cluster", "thread block clusters", FeatureHopper};
  if (isa<WgmmaOp, WgmmaFenceOp, WgmmaCommitOp, WgmmaWaitOp>(op))
    return Requirement{"target.wgmma", "wgmma", FeatureWgmma};
  if (auto role = dyn_cast<RoleOp>(op); role && role.getRegs())
    return Requirement{"target.setmaxnreg", "register reallocation (setmaxnreg)",
                       FeatureSetMaxNReg};
  StringRef name = op->getName().getStringRef();
  if (name.starts_with("cake.cp_async") || name.starts_with("cake.cp.async"))
    return Requirement{"target.cp-async", "cp.async", FeatureAmpere};
  if (name.starts_with("cake.mma"))
    return Requirement{"target.mma-sync", "mma.sync", FeatureAmpere};
  if (name.starts_with("cake.clc"))
    return Requirement{"target.cluster-launch-control", "cluster launch control",
                       FeatureClusterLaunchControl};
  if (name.starts_with("cake.tcgen05") || name.starts_with("cake.tmem"))
    return Requirement{"target.tcgen05", "tcgen05", FeatureTcgen05};
  return std::nullopt;
}

struct CakeVerifyTargetPass : cake::impl::CakeVerifyTargetPassBase<CakeVerifyTargetPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation()->walk([&](KernelOp kernel) {
      StringRef target = kernel.getTarget();
      bool noted = false;
      auto report = [&](Operation *op, const Requirement &req) {
        ok = false;
        InFlightDiagnostic diag = emitFinding(op, req.rule)
                                  << "expected a target with " << req.feature << " ("
                                  << joinTargetsWith(req.features) << "), got " << target;
        if (!noted) // once per kernel: the notes would all point at the same line
          diag.attachNote(kernel.getLoc()) << "the kernel's target is set here";
        noted = true;
        std::string first = joinTargetsWith(req.features);
        first = first.substr(0, first.find(','));
        std::string hint = "set target = \"" + first + "\" on @" +
                           kernel.getSymName().str() + ", or use an op that " + target.str() +
                           " has";
        attachFix(diag, op, req.rule, hint);
      };
      if (kernel.getCluster() && !targetHas(target, FeatureHopper))
        report(kernel, Requirement{"target.cluster", "thread block clusters", FeatureHopper});
      for (Type type : kernel.getArgumentTypes())
        if (isa<TmaType>(type) && !targetHas(target, FeatureHopper)) {
          report(kernel, Requirement{"target.tma", "TMA descriptors", FeatureHopper});
          break;
        }
      kernel.walk([&](Operation *op) {
        if (std::optional<Requirement> req = getRequirement(op))
          if (!targetHas(target, req->features))
            report(op, *req);
      });
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
