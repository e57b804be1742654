// Tactic scripts for test/Tactics/transform-*.mlir, preloaded with
// --transform-preload-library=transform-library-paths=%S/Inputs/tactic-scripts.mlir and run with
// --transform-interpreter=entry-point=<name>. Each applies to the payload's module what the pass
// pipeline in its comment does.
module attributes {transform.with_named_sequence} {
  // cake-tactic-pipeline-stages{stages=2}
  transform.named_sequence @pipeline_stages_2(%root: !transform.any_op {transform.readonly}) {
    transform.cake.pipeline_stages %root {stages = 2 : i64} : !transform.any_op
    transform.yield
  }
  // cake-tactic-pipeline-stages{stages=3}
  transform.named_sequence @pipeline_stages_3(%root: !transform.any_op {transform.readonly}) {
    transform.cake.pipeline_stages %root {stages = 3 : i64} : !transform.any_op
    transform.yield
  }
  // cake-tactic-pad{elements=4} (the default)
  transform.named_sequence @pad_4(%root: !transform.any_op {transform.readonly}) {
    transform.cake.pad %root : !transform.any_op
    transform.yield
  }
  // cake-tactic-swizzle{bytes=128}
  transform.named_sequence @swizzle_128(%root: !transform.any_op {transform.readonly}) {
    transform.cake.swizzle %root {bytes = 128 : i64} : !transform.any_op
    transform.yield
  }
  // cake-tactic-stage-rows
  transform.named_sequence @stage_rows(%root: !transform.any_op {transform.readonly}) {
    transform.cake.stage_rows %root : !transform.any_op
    transform.yield
  }
  // cake-tactic-vectorize{width=8}
  transform.named_sequence @vectorize_8(%root: !transform.any_op {transform.readonly}) {
    transform.cake.vectorize %root {width = 8 : i64} : !transform.any_op
    transform.yield
  }
  // cake-tactic-contract
  transform.named_sequence @contract(%root: !transform.any_op {transform.readonly}) {
    transform.cake.contract %root : !transform.any_op
    transform.yield
  }
  // cake-tactic-index-width{bits=32}
  transform.named_sequence @index_32(%root: !transform.any_op {transform.readonly}) {
    transform.cake.index_width %root {bits = 32 : i64} : !transform.any_op
    transform.yield
  }
  // cake-tactic-programmatic-launch
  transform.named_sequence @programmatic_launch(%root: !transform.any_op {transform.readonly}) {
    transform.cake.programmatic_launch %root : !transform.any_op
    transform.yield
  }
  // cake-tactic-tensorize{tile=64}
  transform.named_sequence @tensorize_64(%root: !transform.any_op {transform.readonly}) {
    transform.cake.tensorize %root {tile = 64 : i64} : !transform.any_op
    transform.yield
  }
  // cake-tactic-tensorize{mma=wgmma buffers=2}
  transform.named_sequence @tensorize_wgmma_2(%root: !transform.any_op {transform.readonly}) {
    transform.cake.tensorize %root {mma = "wgmma", buffers = 2 : i64} : !transform.any_op
    transform.yield
  }
  // cake-tactic-stage-rows,cake-tactic-pad{elements=8}: two tactics in one script.
  transform.named_sequence @stage_rows_then_pad_8(%root: !transform.any_op {transform.readonly}) {
    transform.cake.stage_rows %root : !transform.any_op
    transform.cake.pad %root {elements = 8 : i64} : !transform.any_op
    transform.yield
  }
  // A refusal is silenceable: under failures(suppress) the script goes on with the payload as it
  // was. cake-tactic-tensorize{tile=128} rewrites, then finds the tile over the target's shared
  // memory (tactic-tensorize-over-limit.mlir); then cake-tactic-index-width{bits=32} runs.
  transform.named_sequence @tensorize_128_or_index_32(
      %root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%module: !transform.any_op):
      transform.cake.tensorize %module {tile = 128 : i64} : !transform.any_op
      transform.cake.index_width %module : !transform.any_op
    }
    transform.yield
  }
  // The same with pipeline-stages, which retypes the first pipeline and refuses the second.
  transform.named_sequence @stages_3_or_contract(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%module: !transform.any_op):
      transform.cake.pipeline_stages %module {stages = 3 : i64} : !transform.any_op
      transform.cake.contract %module : !transform.any_op
    }
    transform.yield
  }
  // transform.alternatives: the first alternative that applies to the kernel (each to a copy of
  // it as it was): tensorize with wgmma, else with mma.sync.
  transform.named_sequence @wgmma_or_sync(%root: !transform.any_op {transform.readonly}) {
    %kernel = transform.structured.match ops{["cake.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.alternatives %kernel : !transform.any_op {
    ^bb0(%scope: !transform.any_op):
      transform.cake.tensorize %scope {mma = "wgmma"} : !transform.any_op
    }, {
    ^bb0(%scope: !transform.any_op):
      transform.cake.tensorize %scope : !transform.any_op
    }
    transform.yield
  }
}
