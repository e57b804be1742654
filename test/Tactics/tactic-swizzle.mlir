// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-swizzle{bytes=128})' | FileCheck %s --check-prefixes=CHECK,S128
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-swizzle{bytes=64})' | FileCheck %s --check-prefixes=CHECK,S64
// RUN: cake-opt %s --pass-pipeline='builtin.module(cake-tactic-swizzle{bytes=32})' | FileCheck %s --check-prefixes=CHECK,S32
// RUN: cake-opt %cake_examples/gemm.mlir --cake-tactic-swizzle=bytes=128 | FileCheck %s --check-prefix=GEMM
// RUN: cake-opt %cake_examples/gemm.mlir --cake-tactic-swizzle=bytes=128 | cake-opt --cake-verify -o /dev/null

// Before/after: the 2-D buffers that only plain loads/stores touch, with scalar and vector<4xf32>
// accesses at provably 4-aligned innermost indices, get the swizzle; the 1-D, the padded, the
// already swizzled buffers and those a TMA copy or ldmatrix uses keep their types.
// CHECK-LABEL: cake.kernel @plain
// S128: %[[TILE:.*]] = cake.alloc_smem : !cake.smem<16x64xf32, swizzle = 128>
// S64: %[[TILE:.*]] = cake.alloc_smem : !cake.smem<16x64xf32, swizzle = 64>
// S32: %[[TILE:.*]] = cake.alloc_smem : !cake.smem<16x64xf32, swizzle = 32>
// S128: %[[LOOP:.*]] = cake.alloc_smem : !cake.smem<8x32xf32, swizzle = 128>
// S64: %[[LOOP:.*]] = cake.alloc_smem : !cake.smem<8x32xf32, swizzle = 64>
// S32: %[[LOOP:.*]] = cake.alloc_smem : !cake.smem<8x32xf32, swizzle = 32>
// CHECK: cake.alloc_smem : !cake.smem<256xf32>
// CHECK: cake.alloc_smem : !cake.smem<16x64xf32, pad = 4>
// CHECK: cake.alloc_smem : !cake.smem<16x64xf32, swizzle = 64>
// CHECK: %[[TMABUF:.*]] = cake.alloc_smem : !cake.smem<16x64xf32>
// CHECK: %[[LDM:.*]] = cake.alloc_smem : !cake.smem<16x64xbf16>
// S128: cake.store %{{.*}}, %[[TILE]][%{{.*}}, %{{.*}}] : f32, !cake.smem<16x64xf32, swizzle = 128>
// S128: cake.load %[[TILE]][%{{.*}}, %{{.*}}] : !cake.smem<16x64xf32, swizzle = 128> -> vector<4xf32>
// S128: cake.store %{{.*}}, %[[LOOP]][%{{.*}}, %{{.*}}] : vector<4xf32>, !cake.smem<8x32xf32, swizzle = 128>
// S128: cake.load %[[LOOP]][%{{.*}}, %{{.*}}] : !cake.smem<8x32xf32, swizzle = 128> -> vector<2xf32>
// S32: cake.load %[[TILE]][%{{.*}}, %{{.*}}] : !cake.smem<16x64xf32, swizzle = 32> -> vector<4xf32>
// CHECK: cake.tma.load %{{.*}}, %[[TMABUF]][], %{{.*}} : !cake.tma<[M, K], f32, box [16, 64]>, !cake.smem<16x64xf32>, !cake.mbarriers<1>
// CHECK: cake.ldmatrix %[[LDM]][%{{.*}}, %{{.*}}] : !cake.smem<16x64xbf16> -> vector<8xbf16>
cake.kernel @plain(%a: !cake.tensor<[M, K], f32> {cake.name = "a"},
                   %ta: !cake.tma<[M, K], f32, box [16, 64]> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant dense<0.0> : vector<4xf32>
  %f = arith.constant 1.0 : f32
  %tid = cake.thread_id x
  %tile = cake.alloc_smem : !cake.smem<16x64xf32>
  %loop = cake.alloc_smem : !cake.smem<8x32xf32>
  %flat = cake.alloc_smem : !cake.smem<256xf32>
  %padded = cake.alloc_smem : !cake.smem<16x64xf32, pad = 4>
  %done = cake.alloc_smem : !cake.smem<16x64xf32, swizzle = 64>
  %tmabuf = cake.alloc_smem : !cake.smem<16x64xf32>
  %ldm = cake.alloc_smem : !cake.smem<16x64xbf16>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // Scalar: any index. vector<4xf32>: (tid mod 16) * 4 is a multiple of 4.
  %row = arith.divui %tid, %c16 : index
  %lane = arith.remui %tid, %c16 : index
  %col4 = arith.muli %lane, %c4 : index
  cake.store %f, %tile[%row, %tid] : f32, !cake.smem<16x64xf32>
  %v = cake.load %tile[%row, %col4] : !cake.smem<16x64xf32> -> vector<4xf32>
  // Loop induction variables: lower bound 0, steps 4 (vector<4xf32>) and 2 (vector<2xf32>).
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c32 step %c4 {
      cake.store %v, %loop[%i, %j] : vector<4xf32>, !cake.smem<8x32xf32>
    }
  }
  %c2 = arith.constant 2 : index
  scf.for %j = %c16 to %c32 step %c2 {
    %p = cake.load %loop[%row, %j] : !cake.smem<8x32xf32> -> vector<2xf32>
  }
  %w = cake.load %flat[%c0] : !cake.smem<256xf32> -> f32
  %u = cake.load %padded[%c0, %c0] : !cake.smem<16x64xf32, pad = 4> -> f32
  %s = cake.load %done[%c0, %c0] : !cake.smem<16x64xf32, swizzle = 64> -> f32
  cake.tma.load %ta[%c0, %c0], %tmabuf[], %bars[%c0]
      : !cake.tma<[M, K], f32, box [16, 64]>, !cake.smem<16x64xf32>, !cake.mbarriers<1>
  %m = cake.ldmatrix %ldm[%lane, %c0] : !cake.smem<16x64xbf16> -> vector<8xbf16>
  cake.return
}

// examples/gemm.mlir: the padded A tile stays, the B tile (scalar stores, vector<4xf32> loads at
// (tid mod 16) * 4) is swizzled.
// GEMM: cake.alloc_smem : !cake.smem<16x64xf32, pad = 4>
// GEMM: cake.alloc_smem : !cake.smem<16x64xf32, swizzle = 128>
// GEMM: cake.load %{{.*}} : !cake.smem<16x64xf32, swizzle = 128> -> vector<4xf32>

// Indices through sizes the kernel does not know (IndexResidues, per thread): `x mod y` and
// `x & y` with x = 4 * lane keep x's two low zero bits when y = 4 * K, resp. for any y.
// CHECK-LABEL: cake.kernel @unknown_sizes
// S128: cake.alloc_smem : !cake.smem<16x64xf32, swizzle = 128>
// S128: cake.alloc_smem : !cake.smem<16x64xf32, swizzle = 128>
cake.kernel @unknown_sizes(%a: !cake.tensor<[M, K], f32> {cake.name = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %tid = cake.thread_id x
  %k = cake.problem_size "K"
  %rem_buf = cake.alloc_smem : !cake.smem<16x64xf32>
  %and_buf = cake.alloc_smem : !cake.smem<16x64xf32>
  %lane = arith.remui %tid, %c16 : index
  %x = arith.muli %lane, %c4 : index
  %k4 = arith.muli %k, %c4 : index
  %rem = arith.remsi %x, %k4 : index
  %v = cake.load %rem_buf[%c0, %rem] : !cake.smem<16x64xf32> -> vector<4xf32>
  %and = arith.andi %k, %x : index
  %w = cake.load %and_buf[%c0, %and] : !cake.smem<16x64xf32> -> vector<4xf32>
  cake.return
}
