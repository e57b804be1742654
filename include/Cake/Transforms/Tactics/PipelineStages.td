//===- PipelineStages.td - the tactic cake-tactic-pipeline-stages ------------*- tablegen -*-===//
//
// One record: the pass, its transform op and its presets (TacticBase.td). The rewrite:
// lib/Transforms/TacticPipelineStages.cpp.
//
//===----------------------------------------------------------------------===//

defm CakeTacticPipelineStages : CakeTactic<"pipeline-stages", 1,
  "Tactic: change the stage count of every cake.pipeline and its stage buffers",
  [{
    Gives every `cake.pipeline.create` `stages` slots (`!cake.pipeline<N>`) and every shared
    buffer indexed by that pipeline's slot (`cake.pipeline.slot`) a leading (stage) dimension of
    `stages`. The pipeline ops take iteration numbers and derive slot and phase, so nothing else
    changes.

    Preconditions (else `[tactic.not-applicable]` and failure): `stages` >= 1; every stage buffer
    is a `cake.alloc_smem` whose leading dimension equals the old stage count and whose every user
    also takes a slot of the same pipeline (a buffer indexed by a constant stage or shared by two
    pipelines is refused); the pipeline value is used only by pipeline ops; the kernel's shared
    memory after the change fits its target's limit (163 KiB on sm_80, 227 KiB on Hopper and
    Blackwell). A pipeline that already has `stages` slots is left alone (remark).

    ```
    cake-opt k.mlir --pass-pipeline='builtin.module(cake-tactic-pipeline-stages{stages=3})'
    ```
  }],
  /*options=*/[RequiredIntTacticOption<"stages", "the new number of stages (1 or more)">],
  /*presets=*/!foreach(n, [2, 3, 4, 5, 6],
     TacticPreset<"pipeline-stages-" # n, [IntValue<"stages", n>], ["cake.pipeline.create"]>)>;
