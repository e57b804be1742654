// Written for session 36's second probe of the verifier (a correct, unusual kernel): no finding (a false
// alarm here is a regression).
// RUN: cake-opt %s --cake-verify -o /dev/null
// CORRECT: no barrier at all: each thread keeps a private 4-deep sliding window in shared memory at column (5*tid) mod 128, a bijection on 0..127 (5 is odd), so no two threads of the 128-thread block ever touch the same element; every smem read returns the reading thread's own earlier write (program order), across iterations too.
cake.kernel @moving_avg4(%x: !cake.tensor<[T, 128], f32> {cake.name = "x"},
                         %y: !cake.tensor<[T, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["T"],
                grid = affine_map<()[t] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %qtr = arith.constant 0.25 : f32
  %steps = cake.problem_size "T"
  %tid = cake.thread_id x
  %win = cake.alloc_smem : !cake.smem<4x128xf32>
  %t5 = arith.muli %tid, %c5 : index
  %col = arith.remui %t5, %c128 : index
  scf.for %j = %c0 to %c4 step %c1 {
    cake.store %zero, %win[%j, %col] : f32, !cake.smem<4x128xf32>
  }
  scf.for %t = %c0 to %steps step %c1 {
    %slot = arith.remui %t, %c4 : index
    %v = cake.load %x[%t, %tid] masked : !cake.tensor<[T, 128], f32> -> f32
    cake.store %v, %win[%slot, %col] : f32, !cake.smem<4x128xf32>
    %w0 = cake.load %win[%c0, %col] : !cake.smem<4x128xf32> -> f32
    %w1 = cake.load %win[%c1, %col] : !cake.smem<4x128xf32> -> f32
    %c2 = arith.constant 2 : index
    %w2 = cake.load %win[%c2, %col] : !cake.smem<4x128xf32> -> f32
    %w3 = cake.load %win[%c3, %col] : !cake.smem<4x128xf32> -> f32
    %s01 = arith.addf %w0, %w1 : f32
    %s23 = arith.addf %w2, %w3 : f32
    %s = arith.addf %s01, %s23 : f32
    %avg = arith.mulf %s, %qtr : f32
    cake.store %avg, %y[%t, %tid] masked : f32, !cake.tensor<[T, 128], f32>
  }
  cake.return
}
