// Written for session 36's second probe of the verifier (caught before the change).
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :29:5: error: 'cake.barrier' op [roles.divergent-barrier]
// BUG: each thread loops over its own data-dependent count (cnt[row, tid]) in an scf.while and calls cake.barrier inside the loop body: threads with different counts execute different numbers of barriers (thread 0 with cnt 3 vs thread 1 with cnt 5), so the barrier is divergent (deadlock / undefined on bar.sync).
cake.kernel @ragged_accumulate(%cnt: !cake.tensor<[M, 64], i32> {cake.name = "cnt"},
                               %x: !cake.tensor<[M, 64, 16], f32> {cake.name = "x"},
                               %y: !cake.tensor<[M, 64], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["M"],
                grid = affine_map<()[m] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c63 = arith.constant 63 : index
  %zero = arith.constant 0.0 : f32
  %row = cake.block_id x
  %tid = cake.thread_id x
  %stage = cake.alloc_smem : !cake.smem<64xf32>
  %ni = cake.load %cnt[%row, %tid] masked : !cake.tensor<[M, 64], i32> -> i32
  %n0 = arith.index_cast %ni : i32 to index
  %n = arith.minui %n0, %c16 : index
  %nb = arith.subi %c63, %tid : index
  %res:2 = scf.while (%i = %c0, %acc = %zero) : (index, f32) -> (index, f32) {
    %go = arith.cmpi ult, %i, %n : index
    scf.condition(%go) %i, %acc : index, f32
  } do {
  ^bb0(%i: index, %acc: f32):
    %v = cake.load %x[%row, %tid, %i] masked : !cake.tensor<[M, 64, 16], f32> -> f32
    cake.store %v, %stage[%tid] : f32, !cake.smem<64xf32>
    cake.barrier
    %w = cake.load %stage[%nb] : !cake.smem<64xf32> -> f32
    %acc2 = arith.addf %acc, %w : f32
    cake.barrier
    %i2 = arith.addi %i, %c1 : index
    scf.yield %i2, %acc2 : index, f32
  }
  cake.store %res#1, %y[%row, %tid] masked : f32, !cake.tensor<[M, 64], f32>
  cake.return
}
