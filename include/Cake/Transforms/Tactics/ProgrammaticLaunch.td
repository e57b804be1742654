//===- ProgrammaticLaunch.td - the tactic cake-tactic-programmatic-launch ----*- tablegen -*-===//
//
// One record: the pass, its transform op and its presets (TacticBase.td). The rewrite:
// lib/Transforms/TacticProgrammaticLaunch.cpp.
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
                ["cake.grid_dependency.wait"]>]>;
