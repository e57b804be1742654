//===- TacticProgrammaticLaunch.cpp - tactic: overlap a kernel's launch with its predecessor ===//
//
// Inserts the grid dependency wait (griddepcontrol.wait) into every kernel of an sm_90+ target
// that has no wait yet, before the first op of the body that touches global memory. The manifest
// and the hosts follow the wait (programmatic_launch). No early launch_dependents: at the start of
// the kernel it slowed split-D and multi-chunk wgmma kernels by 20-30% even when launched
// serially (bench/results/2026-12-04-library-kmeans-10, call 6); without it the next kernel is
// signalled when this one exits, which already hides most of the launch latency.
//
//===----------------------------------------------------------------------===//
#include "Cake/IR/CakeOps.h"
#include "Cake/IR/Target.h"
#include "Cake/Transforms/TacticOps.h"

using namespace mlir;
using namespace mlir::cake;

LogicalResult CakeTacticProgrammaticLaunchOp::applyTactic(RewriterBase &, Operation *root,
                                                          const Options &) {
  SmallVector<KernelOp> changed;
  root->walk([&](KernelOp kernel) {
    if (!kernel.waitsForGridDependencies() && targetHas(kernel.getTarget(), FeatureHopper))
      changed.push_back(kernel);
  });
  if (changed.empty())
    return mlir::emitError(root->getLoc())
           << "[tactic.not-applicable] cake-tactic-programmatic-launch: no kernel of an sm_90+ "
              "target without a grid dependency wait";
  for (KernelOp kernel : changed) {
    Block &body = kernel.getBody().front();
    // Before the first op that touches global memory; before the terminator when none does.
    Operation *first = body.getTerminator();
    for (Operation &op : body)
      if (findGlobalMemoryAccess(&op)) {
        first = &op;
        break;
      }
    OpBuilder b(first);
    GridDependencyWaitOp::create(b, first->getLoc());
  }
  return success();
}
