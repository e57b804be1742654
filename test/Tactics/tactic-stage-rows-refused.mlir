// RUN: not cake-opt %s --pass-pipeline='builtin.module(cake-tactic-stage-rows)' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s

// cake-tactic-stage-rows refuses loops it cannot stage, with the reason for each.
// CHECK: error: [tactic.not-applicable] cake-tactic-stage-rows: no lane-strided row loop qualifies
// CHECK: note: the lower bound is not cake.lane_id
// CHECK: note: the step is not 32
// CHECK: note: the upper bound differs between threads
// CHECK: note: no load reads row = the induction variable, column = an inner loop's
cake.kernel @refused(%c: !cake.tensor<[K, 128], f32> {cake.name = "c"},
                     %out: !cake.tensor<[K], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %lane = cake.lane_id
  %tid = cake.thread_id x
  // Not lane-strided.
  %a = scf.for %k = %c0 to %kdim step %c32 iter_args(%s = %zero) -> (f32) {
    scf.yield %s : f32
  }
  // Step 16.
  %b = scf.for %k = %lane to %kdim step %c16 iter_args(%s = %a) -> (f32) {
    scf.yield %s : f32
  }
  // A thread-dependent upper bound.
  %d = scf.for %k = %lane to %tid step %c32 iter_args(%s = %b) -> (f32) {
    scf.yield %s : f32
  }
  // Reads column k of each row: not a row per lane.
  %e = scf.for %k = %lane to %kdim step %c32 iter_args(%s = %d) -> (f32) {
    %dot = scf.for %j = %c0 to %c128 step %c1 iter_args(%acc = %s) -> (f32) {
      %v = cake.load %c[%j, %k] : !cake.tensor<[K, 128], f32> -> f32
      %n = arith.addf %acc, %v : f32
      scf.yield %n : f32
    }
    scf.yield %dot : f32
  }
  cake.store %e, %out[%tid] masked : f32, !cake.tensor<[K], f32>
  cake.return
}
