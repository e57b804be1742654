// RUN: cake-opt %s -split-input-file --transform-interpreter -verify-diagnostics

// A tactic that does not apply fails silenceably with the pass's error and notes; under
// failures(propagate) (a named sequence always propagates) the interpreter reports them.
// expected-error @below {{[tactic.not-applicable] cake-tactic-pad: no shared buffer qualifies}}
module attributes {transform.with_named_sequence} {
  cake.kernel @plain() attributes {target = "sm_80", block = array<i64: 128>, symbols = [],
                                   grid = affine_map<() -> (1)>} {
    %c0 = arith.constant 0 : index
    %z = arith.constant dense<0.0> : vector<4xf32>
    // expected-note @below {{!cake.smem<16x64xf32>: a pad of 2 elements would misalign its 4-wide accesses}}
    %tile = cake.alloc_smem : !cake.smem<16x64xf32>
    // expected-note @below {{!cake.smem<256xf32>: rank 1 (no rows to pad)}}
    %flat = cake.alloc_smem : !cake.smem<256xf32>
    cake.store %z, %tile[%c0, %c0] : vector<4xf32>, !cake.smem<16x64xf32>
    %w = cake.load %flat[%c0] : !cake.smem<256xf32> -> f32
    cake.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.cake.pad %root {elements = 2 : i64} : !transform.any_op
    transform.yield
  }
}

// -----

// The same from a handle to the kernels (transform.structured.match), and an error at an op.
module attributes {transform.with_named_sequence} {
  cake.kernel @wrong_leading() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                           grid = affine_map<() -> (1)>} {
    %c0 = arith.constant 0 : index
    // expected-error @below {{'cake.alloc_smem' op [tactic.not-applicable] cake-tactic-pipeline-stages: the stage buffer '!cake.smem<8x64xf32>' has a leading dimension of 8, not the pipeline's 4 stages}}
    %buf = cake.alloc_smem : !cake.smem<8x64xf32>
    %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<4>
    %slot = cake.pipeline.slot %pipe[%c0] : !cake.pipeline<4>
    %v = cake.load %buf[%slot, %c0] : !cake.smem<8x64xf32> -> f32
    cake.return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %kernels = transform.structured.match ops{["cake.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.cake.pipeline_stages %kernels {stages = 2 : i64} : !transform.any_op
    transform.yield
  }
}

// -----

// An attribute out of range is an error of the script: the op's verifier reports it (the
// tactic's own check) before anything runs.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.cake.pad' op expected elements >= 1, got 0}}
    transform.cake.pad %root {elements = 0 : i64} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.cake.tensorize' op mma=wgmma takes rows=16 (a warpgroup's 4 warps own 64 rows), got 32}}
    transform.cake.tensorize %root {mma = "wgmma", rows = 32 : i64} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.cake.swizzle' op expected bytes 32, 64 or 128, got 16}}
    transform.cake.swizzle %root {bytes = 16 : i64} : !transform.any_op
    transform.yield
  }
}
