// DEFINE: %{script} = --transform-preload-library=transform-library-paths=%S/Inputs/tactic-scripts.mlir --transform-interpreter=entry-point
// RUN: cake-opt %s %{script}=stages_3_or_contract | FileCheck %s
// RUN: cake-opt %S/tactic-tensorize-over-limit.mlir --pass-pipeline='builtin.module(cake-tactic-index-width{bits=32})' > %t.pass
// RUN: cake-opt %S/tactic-tensorize-over-limit.mlir %{script}=tensorize_128_or_index_32 > %t.op
// RUN: diff %t.pass %t.op
// transform.alternatives: wgmma where it applies, else mma.sync.
// RUN: cake-opt %S/tactic-tensorize-wgmma-refused.mlir -split-input-file --pass-pipeline='builtin.module(cake-tactic-tensorize)' > %t.sync.pass
// RUN: cake-opt %S/tactic-tensorize-wgmma-refused.mlir -split-input-file %{script}=wgmma_or_sync > %t.sync.op
// RUN: diff %t.sync.pass %t.sync.op
// RUN: cake-opt %S/tactic-tensorize-options.mlir --pass-pipeline='builtin.module(cake-tactic-tensorize{mma=wgmma})' > %t.wgmma.pass
// RUN: cake-opt %S/tactic-tensorize-options.mlir %{script}=wgmma_or_sync > %t.wgmma.op
// RUN: diff %t.wgmma.pass %t.wgmma.op

// A tactic that refuses under `transform.sequence failures(suppress)` leaves the payload as it was
// and the next tactic runs. Here transform.cake.pipeline_stages retypes the first pipeline (and
// its buffer) to 3 stages, then refuses the second (its buffer's leading dimension is not the
// stage count): the first pipeline gets its 4 stages back, and transform.cake.contract runs.
// Second run: transform.cake.tensorize rewrites the kernel, then finds its tile over the target's
// shared memory and refuses: the output is exactly what cake-tactic-index-width alone gives.
// transform.alternatives tries the next alternative after a refusal too (runs 3 and 4).

// CHECK-LABEL: cake.kernel @two_pipelines
// CHECK: cake.alloc_smem : !cake.smem<4x64x64xbf16, swizzle = 128>
// CHECK: cake.alloc_smem : !cake.smem<8x64xf32>
// CHECK: cake.pipeline.create consumers 1 : !cake.pipeline<4>
// CHECK: cake.pipeline.create consumers 1 : !cake.pipeline<4>
// CHECK-NOT: pipeline<3>
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
cake.kernel @two_pipelines() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                         grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %staged = cake.alloc_smem : !cake.smem<4x64x64xbf16, swizzle = 128>
  %wrong = cake.alloc_smem : !cake.smem<8x64xf32>
  %good = cake.pipeline.create consumers 1 : !cake.pipeline<4>
  %refused = cake.pipeline.create consumers 1 : !cake.pipeline<4>
  %s0 = cake.pipeline.slot %good[%c0] : !cake.pipeline<4>
  %v = cake.load %staged[%s0, %c0, %c0] : !cake.smem<4x64x64xbf16, swizzle = 128> -> bf16
  %s1 = cake.pipeline.slot %refused[%c0] : !cake.pipeline<4>
  %w = cake.load %wrong[%s1, %c0] : !cake.smem<8x64xf32> -> f32
  %p = arith.mulf %w, %w : f32
  %q = arith.addf %p, %w : f32
  cake.return
}
