// RUN: not cake-opt %s -split-input-file --pass-pipeline='builtin.module(cake-tactic-pipeline-stages{stages=2})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s

// cake-tactic-pipeline-stages refuses what it cannot retype safely.

// Not applicable: the buffer is also read at a constant stage.
// CHECK: error: 'cake.load' op [tactic.not-applicable] cake-tactic-pipeline-stages: the stage buffer '!cake.smem<4x64x64xbf16, swizzle = 128>' is accessed without the pipeline's slot (a constant or computed stage)
// CHECK: note: the buffer
cake.kernel @constant_stage() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                 grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %buf = cake.alloc_smem : !cake.smem<4x64x64xbf16, swizzle = 128>
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<4>
  %slot = cake.pipeline.slot %pipe[%c0] : !cake.pipeline<4>
  %v = cake.load %buf[%slot, %c0, %c0] : !cake.smem<4x64x64xbf16, swizzle = 128> -> bf16
  %w = cake.load %buf[%c3, %c0, %c0] : !cake.smem<4x64x64xbf16, swizzle = 128> -> bf16
  cake.return
}

// -----

// Not applicable: the slot-indexed buffer's leading dimension is not the stage count.
// CHECK: error: 'cake.alloc_smem' op [tactic.not-applicable] cake-tactic-pipeline-stages: the stage buffer '!cake.smem<8x64xf32>' has a leading dimension of 8, not the pipeline's 4 stages
cake.kernel @wrong_leading() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                 grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<8x64xf32>
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<4>
  %slot = cake.pipeline.slot %pipe[%c0] : !cake.pipeline<4>
  %v = cake.load %buf[%slot, %c0] : !cake.smem<8x64xf32> -> f32
  cake.return
}
