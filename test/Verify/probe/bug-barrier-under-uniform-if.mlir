// Written for session 36's second probe of the verifier (missed until the check asked whether a barrier runs at every probe size).
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :22:8: error: 'cake.load' op [race.missing-barrier]
// BUG: the only barrier between the smem stores and the cross-warp reads is under a block-uniform scf.if (K >= 64, a "large problem" path); for K < 64 no barrier runs and thread 0 (warp 0) reads buf[127], written by thread 127 (warp 3), unordered.
cake.kernel @flip_if(%x: !cake.tensor<[M, 128], f32> {cake.name = "x"},
                     %y: !cake.tensor<[M, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m)>} {
  %c64 = arith.constant 64 : index
  %c127 = arith.constant 127 : index
  %kdim = cake.problem_size "K"
  %row = cake.block_id x
  %tid = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %v = cake.load %x[%row, %tid] masked : !cake.tensor<[M, 128], f32> -> f32
  cake.store %v, %buf[%tid] : f32, !cake.smem<128xf32>
  %big = arith.cmpi uge, %kdim, %c64 : index
  scf.if %big {
    cake.barrier
  }
  %mir = arith.subi %c127, %tid : index
  %f = cake.load %buf[%mir] : !cake.smem<128xf32> -> f32
  cake.store %f, %y[%row, %tid] masked : f32, !cake.tensor<[M, 128], f32>
  cake.return
}
// CHECK: :19:5: note: this barrier does not run when M = 3, K = 3 (its condition is false)
