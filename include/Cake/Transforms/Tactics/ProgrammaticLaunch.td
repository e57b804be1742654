//===- ProgrammaticLaunch.td - the tactic cake-tactic-programmatic-launch ----*- tablegen -*-===//
//
// One record: the pass, its transform op, its presets and its rewrite (TacticBase.td).
//
//===----------------------------------------------------------------------===//

defm CakeTacticProgrammaticLaunch : CakeTactic<"programmatic-launch", 9,
  "Tactic: let each kernel start while the previous kernel of its stream finishes",
  [{
    Programmatic dependent launch (sm_90+). In every kernel of a target that has it and no
    `cake.grid_dependency.wait` yet, inserts the wait just before the first op of the body that
    touches global memory: the index arithmetic and shared-memory setup ahead of it overlap the
    previous kernel's tail. The manifest then says `"programmatic_launch": true` and the library
    dispatchers launch the kernel with programmatic stream serialization. On the H200, KMeans
    kernels in graphs of back-to-back calls: 1.30-1.54 -> 0.98-1.15 us for the tiniest, 5-15%
    faster at 5-20 us, unchanged when launched serially (bench/results/2026-12-04-library-
    kmeans-10, call 6).

    The tactic adds no `cake.grid_dependency.launch_dependents`: the next kernel then starts when
    this one exits. At the start of the kernel the signal made split-D and multi-chunk wgmma
    kernels 20-30% slower, even launched serially (same call).

    Preconditions: some kernel of an sm_90+ target has no grid dependency wait yet, else
    `[tactic.not-applicable]` and failure.

    ```
    cake-opt k.mlir --pass-pipeline='builtin.module(cake-tactic-programmatic-launch)'
    ```
  }],
  /*options=*/[],
  /*presets=*/[TacticPreset<"programmatic-launch", [], [],
                ["cake.grid_dependency.wait"]>],
  /*dialects=*/[],
  // No early launch_dependents: at the start of the kernel it slowed split-D and multi-chunk
  // wgmma kernels by 20-30% even launched serially (bench/results/2026-12-04-library-kmeans-10,
  // call 6); without it the next kernel is signalled when this one exits.
  /*rewrite=*/[{
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
  }]>;
