// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-pad{elements=4})' | FileCheck %s
// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-pad{elements=2})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISALIGN
// RUN: not cake-opt %cake_examples/hopper_gemm.mlir --pass-pipeline='builtin.module(cake-tactic-pad{elements=8})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=TMA

// Before/after: the 2-D buffer of plain loads/stores gets 4 elements of padding per row; the
// 1-D and the already padded buffers stay.
// CHECK-LABEL: cake.kernel @plain
// CHECK: cake.alloc_smem : !cake.smem<16x64xf32, pad = 4>
// CHECK: cake.alloc_smem : !cake.smem<256xf32>
// CHECK: cake.alloc_smem : !cake.smem<16x64xf32, pad = 4>
// CHECK: cake.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : vector<4xf32>, !cake.smem<16x64xf32, pad = 4>
// CHECK: cake.load %{{.*}}[%{{.*}}, %{{.*}}] : !cake.smem<16x64xf32, pad = 4> -> f32
// MISALIGN: error: [tactic.not-applicable] cake-tactic-pad: no shared buffer qualifies
// MISALIGN: note: !cake.smem<16x64xf32>: a pad of 2 elements would misalign its 4-wide accesses
// MISALIGN: note: !cake.smem<256xf32>: rank 1 (no rows to pad)
// MISALIGN: note: !cake.smem<16x64xf32, pad = 4>: already padded
cake.kernel @plain() attributes {target = "sm_80", block = array<i64: 128>, symbols = [],
                                 grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : vector<4xf32>
  %tile = cake.alloc_smem : !cake.smem<16x64xf32>
  %flat = cake.alloc_smem : !cake.smem<256xf32>
  %done = cake.alloc_smem : !cake.smem<16x64xf32, pad = 4>
  cake.store %z, %tile[%c0, %c0] : vector<4xf32>, !cake.smem<16x64xf32>
  %v = cake.load %tile[%c0, %c0] : !cake.smem<16x64xf32> -> f32
  %w = cake.load %flat[%c0] : !cake.smem<256xf32> -> f32
  %u = cake.load %done[%c0, %c0] : !cake.smem<16x64xf32, pad = 4> -> f32
  cake.return
}

// TMA: error: [tactic.not-applicable] cake-tactic-pad: no shared buffer qualifies
// TMA: note: !cake.smem<4x128x64xbf16, swizzle = 128>: swizzled
