// Written for session 36's second probe of the verifier (missed until the check asked whether a barrier runs at every probe size).
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :32:8: error: 'cake.load' op [race.missing-barrier]
// BUG: the only barrier between the smem stores and the cross-warp reads sits inside a loop over K/32 chunks; when K < 32 (uniform, legal, e.g. K = 16) the loop runs zero times and thread 0 (warp 0) reads buf[127 - 0] = buf[127], written by thread 127 (warp 3), with no barrier at all.
cake.kernel @flip_then_dot(%x: !cake.tensor<[M, 128], f32> {cake.name = "x"},
                           %w: !cake.tensor<[K], f32> {cake.name = "w"},
                           %y: !cake.tensor<[M, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c127 = arith.constant 127 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %nch = arith.divui %kdim, %c32 : index
  %row = cake.block_id x
  %tid = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %v = cake.load %x[%row, %tid] masked : !cake.tensor<[M, 128], f32> -> f32
  cake.store %v, %buf[%tid] : f32, !cake.smem<128xf32>
  %lane = arith.remui %tid, %c32 : index
  %wsum = scf.for %ch = %c0 to %nch step %c1 iter_args(%acc = %zero) -> (f32) {
    cake.barrier
    %k0 = arith.muli %ch, %c32 : index
    %k = arith.addi %k0, %lane : index
    %wk = cake.load %w[%k] masked : !cake.tensor<[K], f32> -> f32
    %acc2 = arith.addf %acc, %wk : f32
    scf.yield %acc2 : f32
  }
  %mir = arith.subi %c127, %tid : index
  %f = cake.load %buf[%mir] : !cake.smem<128xf32> -> f32
  %o = arith.addf %f, %wsum : f32
  cake.store %o, %y[%row, %tid] masked : f32, !cake.tensor<[M, 128], f32>
  cake.return
}
// CHECK: :24:5: note: this barrier does not run when M = 3, K = 3 (its loop runs no iteration)
