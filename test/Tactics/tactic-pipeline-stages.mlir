// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-pipeline-stages{stages=2})' | FileCheck %s
// RUN: cake-opt %cake_examples/hopper_gemm.mlir --pass-pipeline='builtin.module(cake-tactic-pipeline-stages{stages=3})' | FileCheck %s --check-prefix=GEMM
// RUN: not cake-opt %cake_examples/hopper_gemm.mlir --pass-pipeline='builtin.module(cake-tactic-pipeline-stages{stages=5})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVER
// RUN: cake-opt %cake_examples/hopper_gemm.mlir --pass-pipeline='builtin.module(cake-tactic-pipeline-stages{stages=4})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-pipeline-stages{stages=0})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZERO

// GEMM: cake.alloc_smem : !cake.smem<3x128x64xbf16, swizzle = 128>
// GEMM: cake.alloc_smem : !cake.smem<3x256x64xbf16, swizzle = 128>
// GEMM: cake.pipeline.create consumers 2 : !cake.pipeline<3>
// GEMM-NOT: pipeline<4>
// OVER: error: 'cake.pipeline.create' op [tactic.not-applicable] cake-tactic-pipeline-stages: 5 stages need 245840 bytes of shared memory, over the 232448 bytes of sm_90a
// SAME: remark: cake-tactic-pipeline-stages: already 4 stages: unchanged
// ZERO: [tactic.not-applicable] cake-tactic-pipeline-stages: expected stages >= 1, got 0

// Before/after: the ring and the slot-indexed buffer get 2 stages; the other buffer stays.
// CHECK-LABEL: cake.kernel @staged
// CHECK: cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
// CHECK: cake.alloc_smem : !cake.smem<4x64xf32>
// CHECK: cake.pipeline.create consumers 1 : !cake.pipeline<2>
// CHECK: cake.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !cake.smem<2x64x64xbf16, swizzle = 128> -> bf16
cake.kernel @staged() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                 grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<4x64x64xbf16, swizzle = 128>
  %other = cake.alloc_smem : !cake.smem<4x64xf32>
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<4>
  cake.pipeline.consumer_wait %pipe[%c0] : !cake.pipeline<4>
  %slot = cake.pipeline.slot %pipe[%c0] : !cake.pipeline<4>
  %v = cake.load %buf[%slot, %c0, %c0] : !cake.smem<4x64x64xbf16, swizzle = 128> -> bf16
  %w = cake.load %other[%c0, %c0] : !cake.smem<4x64xf32> -> f32
  cake.pipeline.consumer_release %pipe[%c0] : !cake.pipeline<4>
  cake.return
}
