// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{tile=128})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-tensorize{rows=24})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS

// cake-tactic-tensorize refuses a rewrite whose tile would not fit beside the kernel's own shared
// buffers (200 KiB here), and a row count other than 16 or 32 per warp.
// CHECK: error: [tactic.not-applicable] cake-tactic-tensorize: the tile needs 239616 bytes of shared memory, over the {{[0-9]+}} bytes of sm_90a
// ROWS: error: [tactic.not-applicable] cake-tactic-tensorize: expected rows 16 or 32, got 24
cake.kernel @kmeans(%x: !cake.tensor<[B, N, 128], f16> {cake.name = "x"},
                    %c: !cake.tensor<[B, K, 128], f16> {cake.name = "c"},
                    %csq: !cake.tensor<[B, K], f32> {cake.name = "csq"},
                    %idx: !cake.tensor<[B, N], i32> {cake.name = "idx"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["B", "N", "K"],
                grid = affine_map<()[b, n, k] -> (n ceildiv 8, b)>} {
  %c0 = arith.constant 0 : index
  %big = cake.alloc_smem : !cake.smem<200x512xf16>
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %cppb = arith.constant 8 : index
  %inf = arith.constant 0x7F800000 : f32
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %kdim = cake.problem_size "K"
  %bx = cake.block_id x
  %b = cake.block_id y
  %w = cake.warp_id
  %lane = cake.lane_id
  %p0 = arith.muli %bx, %cppb : index
  %i = arith.addi %p0, %w : index
  %kbig = arith.index_cast %kdim : index to i32
  %best:2 = scf.for %k = %lane to %kdim step %c32 iter_args(%bs = %inf, %bk = %kbig) -> (f32, i32) {
    %dot = scf.for %j = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {
      %xh = cake.load %x[%b, %i, %j] masked : !cake.tensor<[B, N, 128], f16> -> f16
      %ch = cake.load %c[%b, %k, %j] : !cake.tensor<[B, K, 128], f16> -> f16
      %xv = arith.extf %xh : f16 to f32
      %cv = arith.extf %ch : f16 to f32
      %acc2 = math.fma %xv, %cv, %acc : f32
      scf.yield %acc2 : f32
    }
    %sq = cake.load %csq[%b, %k] : !cake.tensor<[B, K], f32> -> f32
    %twodot = arith.mulf %two, %dot : f32
    %s = arith.subf %sq, %twodot : f32
    %k32 = arith.index_cast %k : index to i32
    %closer = arith.cmpf olt, %s, %bs : f32
    %ns = arith.select %closer, %s, %bs : f32
    %nk = arith.select %closer, %k32, %bk : i32
    scf.yield %ns, %nk : f32, i32
  }
  %ms, %mk = cake.warp_arg_reduce argmin %best#0, %best#1 : f32, i32
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %mk, %idx[%b, %i] masked : i32, !cake.tensor<[B, N], i32>
  }
  cake.return
}
