// Written for session 36's second probe of the verifier (caught before the change).
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :35:7: error: 'cake.store' op [race.missing-barrier]
// BUG: double-buffered tile loop (block 256, 2x8x256 tiles) with its ONE barrier between the prefetch store and the read: in iteration kt+1 thread 0 (warp 0) stores tile kt+2 into buf[kt%2][1][0] while thread 32 (warp 1) may still be reading buf[kt%2][1][0] in iteration kt (no barrier after the reads). WAR race across iterations.
cake.kernel @colsum_dbuf(%x: !cake.tensor<[K, 256], f32> {cake.name = "x"},
                         %out: !cake.tensor<[256], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %kt_n = arith.ceildivui %kdim, %c8 : index
  %tid = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<2x8x256xf32>
  // prologue: tile 0 into slot 0, each thread one column of 8 rows
  scf.for %r = %c0 to %c8 step %c1 {
    %v = cake.load %x[%r, %tid] masked : !cake.tensor<[K, 256], f32> -> f32
    cake.store %v, %buf[%c0, %r, %tid] : f32, !cake.smem<2x8x256xf32>
  }
  %warp = arith.divui %tid, %c32 : index
  %lane = arith.remui %tid, %c32 : index
  %tot = scf.for %kt = %c0 to %kt_n step %c1 iter_args(%acc = %zero) -> (f32) {
    %cur = arith.remui %kt, %c2 : index
    %nt = arith.addi %kt, %c1 : index
    %nxt = arith.remui %nt, %c2 : index
    %k0 = arith.muli %nt, %c8 : index
    scf.for %r = %c0 to %c8 step %c1 {
      %gk = arith.addi %k0, %r : index
      %v = cake.load %x[%gk, %tid] masked : !cake.tensor<[K, 256], f32> -> f32
      cake.store %v, %buf[%nxt, %r, %tid] : f32, !cake.smem<2x8x256xf32>
    }
    cake.barrier
    // warp w reads row w of the current tile, 8 columns per lane
    %s = scf.for %j = %c0 to %c8 step %c1 iter_args(%a = %acc) -> (f32) {
      %j32 = arith.muli %j, %c32 : index
      %col = arith.addi %j32, %lane : index
      %e = cake.load %buf[%cur, %warp, %col] : !cake.smem<2x8x256xf32> -> f32
      %a2 = arith.addf %a, %e : f32
      scf.yield %a2 : f32
    }
    scf.yield %s : f32
  }
  %idx = arith.addi %warp, %c0 : index
  %w = arith.muli %idx, %c32 : index
  %o = arith.addi %w, %lane : index
  cake.store %tot, %out[%o] masked : f32, !cake.tensor<[256], f32>
  cake.return
}
