// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize)' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{tile=24})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILE

// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{buffers=3})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUFFERS
// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{unroll=3})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNROLL
// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{mma=hmma})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MMA
// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{mma=wgmma rows=32})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WGROWS

// cake-tactic-tensorize refuses loops it cannot put on tensor cores, with the reason for each.
// TILE: error: [tactic.not-applicable] cake-tactic-tensorize: expected tile a multiple of 16 in 16 .. 256, got 24
// BUFFERS: error: [tactic.not-applicable] cake-tactic-tensorize: expected buffers 1 or 2, got 3
// UNROLL: error: [tactic.not-applicable] cake-tactic-tensorize: expected unroll to divide tile / 8 = 8, got 3
// MMA: error: [tactic.not-applicable] cake-tactic-tensorize: expected mma 'sync' or 'wgmma', got 'hmma'
// WGROWS: error: [tactic.not-applicable] cake-tactic-tensorize: mma=wgmma takes rows=16 (a warpgroup's 4 warps own 64 rows), got 32
// CHECK: error: [tactic.not-applicable] cake-tactic-tensorize: no warp dot-product reduction qualifies
// CHECK: note: the step is not 32
// CHECK: note: expected one loop (the dot product) directly inside, got 0
// CHECK: note: a factor is not a scalar f16/bf16 load of a global tensor
// CHECK: note: the dot-product length is not a constant multiple of 32 up to 256
// CHECK: note: the row index is not cake.block_id x * (warps per block) + cake.warp_id
// CHECK: note: a result of the loop is used other than by a 32-lane warp reduction
cake.kernel @refused(%x: !cake.tensor<[N, 128], f16> {cake.name = "x"},
                     %c: !cake.tensor<[K, 128], f16> {cake.name = "c"},
                     %out: !cake.tensor<[N], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["N", "K"],
                grid = affine_map<()[n, k] -> (n ceildiv 2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c100 = arith.constant 100 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %lane = cake.lane_id
  %tid = cake.thread_id x
  %bx = cake.block_id x
  %w = cake.warp_id
  %p0 = arith.muli %bx, %c2 : index
  %i = arith.addi %p0, %w : index
  %sm = cake.alloc_smem : !cake.smem<32x128xf16>
  // Step 16.
  %a = scf.for %k = %lane to %kdim step %c16 iter_args(%s = %zero) -> (f32) {
    scf.yield %s : f32
  }
  // No dot product inside.
  %b = scf.for %k = %lane to %kdim step %c32 iter_args(%s = %a) -> (f32) {
    scf.yield %s : f32
  }
  // A factor in shared memory (the tactic stages global rows itself).
  %d = scf.for %k = %lane to %kdim step %c32 iter_args(%s = %b) -> (f32) {
    %dot = scf.for %j = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {
      %u = cake.load %x[%i, %j] : !cake.tensor<[N, 128], f16> -> f16
      %v = cake.load %sm[%k, %j] : !cake.smem<32x128xf16> -> f16
      %uu = arith.extf %u : f16 to f32
      %vv = arith.extf %v : f16 to f32
      %n = math.fma %uu, %vv, %acc : f32
      scf.yield %n : f32
    }
    %t = arith.addf %s, %dot : f32
    scf.yield %t : f32
  }
  // A dot product of 100 elements (not a multiple of 32).
  %e = scf.for %k = %lane to %kdim step %c32 iter_args(%s = %d) -> (f32) {
    %dot = scf.for %j = %c0 to %c100 step %c1 iter_args(%acc = %zero) -> (f32) {
      %u = cake.load %x[%i, %j] : !cake.tensor<[N, 128], f16> -> f16
      %v = cake.load %c[%k, %j] : !cake.tensor<[K, 128], f16> -> f16
      %uu = arith.extf %u : f16 to f32
      %vv = arith.extf %v : f16 to f32
      %n = math.fma %uu, %vv, %acc : f32
      scf.yield %n : f32
    }
    %t = arith.addf %s, %dot : f32
    scf.yield %t : f32
  }
  // Rows per thread, not per warp.
  %f = scf.for %k = %lane to %kdim step %c32 iter_args(%s = %e) -> (f32) {
    %dot = scf.for %j = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {
      %u = cake.load %x[%tid, %j] : !cake.tensor<[N, 128], f16> -> f16
      %v = cake.load %c[%k, %j] : !cake.tensor<[K, 128], f16> -> f16
      %uu = arith.extf %u : f16 to f32
      %vv = arith.extf %v : f16 to f32
      %n = math.fma %uu, %vv, %acc : f32
      scf.yield %n : f32
    }
    %t = arith.addf %s, %dot : f32
    scf.yield %t : f32
  }
  // Each lane's partial sum is stored without a warp reduction.
  %g = scf.for %k = %lane to %kdim step %c32 iter_args(%s = %f) -> (f32) {
    %dot = scf.for %j = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {
      %u = cake.load %x[%i, %j] masked : !cake.tensor<[N, 128], f16> -> f16
      %v = cake.load %c[%k, %j] : !cake.tensor<[K, 128], f16> -> f16
      %uu = arith.extf %u : f16 to f32
      %vv = arith.extf %v : f16 to f32
      %n = math.fma %uu, %vv, %acc : f32
      scf.yield %n : f32
    }
    %t = arith.addf %s, %dot : f32
    scf.yield %t : f32
  }
  cake.store %g, %out[%i] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
