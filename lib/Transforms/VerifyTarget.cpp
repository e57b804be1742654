//===- VerifyTarget.cpp - each op's minimum target ------------------------===//
#include "Cake/IR/CakeOps.h"
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
/// A feature and the targets that have it.
struct Requirement {
  StringRef rule;
  StringRef feature;
  ArrayRef<StringRef> targets;
};

constexpr StringRef kAmpere[] = {"sm_80", "sm_90", "sm_90a", "sm_100a"};
constexpr StringRef kHopper[] = {"sm_90", "sm_90a", "sm_100a"};
constexpr StringRef kHopperA[] = {"sm_90a"};
constexpr StringRef kRegisterReallocation[] = {"sm_90a", "sm_100a"};
constexpr StringRef kBlackwellA[] = {"sm_100a"};

/// The requirement of `op`, if it has one. Ops of later extensions are matched by name, so the
/// table covers them before their classes exist.
std::optional<Requirement> getRequirement(Operation *op) {
  if (isa<TmaLoadOp>(op))
    return Requirement{"target.tma", "TMA copies", kHopper};
  if (isa<MbarrierArriveExpectTxOp>(op))
    return Requirement{"target.mbarrier-tx", "mbarrier transaction counts", kHopper};
  if (isa<MbarrierWaitOp>(op))
    return Requirement{"target.mbarrier-try-wait", "mbarrier.try_wait.parity", kHopper};
  if (isa<FenceMbarrierInitOp>(op))
    return Requirement{"target.fence-mbarrier-init", "fence.mbarrier_init", kHopper};
  if (isa<FenceProxyAsyncOp>(op))
    return Requirement{"target.fence-proxy-async", "fence.proxy.async", kHopper};
  if (isa<ElectOneOp>(op))
    return Requirement{"target.elect", "elect.sync", kHopper};
  if (isa<PipelineCreateOp, PipelineProducerAcquireOp, PipelineProducerCommitOp,
          PipelineConsumerWaitOp, PipelineConsumerReleaseOp>(op))
    return Requirement{"target.pipeline", "TMA pipelines (mbarrier transaction counts)", kHopper};
  if (isa<ClusterIdOp, ClusterBlockIdOp>(op))
    return Requirement{"target.cluster", "thread block clusters", kHopper};
  if (isa<WgmmaOp, WgmmaFenceOp, WgmmaCommitOp, WgmmaWaitOp>(op))
    return Requirement{"target.wgmma", "wgmma", kHopperA};
  if (auto role = dyn_cast<RoleOp>(op); role && role.getRegs())
    return Requirement{"target.setmaxnreg", "register reallocation (setmaxnreg)",
                       kRegisterReallocation};
  StringRef name = op->getName().getStringRef();
  if (name.starts_with("cake.cp_async") || name.starts_with("cake.cp.async"))
    return Requirement{"target.cp-async", "cp.async", kAmpere};
  if (name.starts_with("cake.mma"))
    return Requirement{"target.mma-sync", "mma.sync", kAmpere};
  if (name.starts_with("cake.tcgen05"))
    return Requirement{"target.tcgen05", "tcgen05", kBlackwellA};
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
                                  << llvm::join(req.targets, ", ") << "), got " << target;
        if (!noted) // once per kernel: the notes would all point at the same line
          diag.attachNote(kernel.getLoc()) << "the kernel's target is set here";
        noted = true;
        std::string hint = "set target = \"" + req.targets.front().str() + "\" on @" +
                           kernel.getSymName().str() + ", or use an op that " + target.str() +
                           " has";
        attachFix(diag, op, req.rule, hint);
      };
      if (kernel.getCluster() && !llvm::is_contained(kHopper, target))
        report(kernel, Requirement{"target.cluster", "thread block clusters", kHopper});
      for (Type type : kernel.getArgumentTypes())
        if (isa<TmaType>(type) && !llvm::is_contained(kHopper, target)) {
          report(kernel, Requirement{"target.tma", "TMA descriptors", kHopper});
          break;
        }
      kernel.walk([&](Operation *op) {
        if (std::optional<Requirement> req = getRequirement(op))
          if (!llvm::is_contained(req->targets, target))
            report(op, *req);
      });
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
