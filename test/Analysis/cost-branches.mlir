// RUN: cake-opt %s -split-input-file -o /dev/null \
// RUN:   --cake-print-cost="sizes=N=1,K=4096 profile=%S/Inputs/h200-test.json" 2>&1 | FileCheck %s

// How the cost model charges branches on the critical path (global latency 500 ns in the test
// profile).

// Four guarded loads per outer iteration (an unrolled 4-trip loop of `if (k < K) load`): the
// branches' loads are in flight together, so the 1024 iterations pay one latency each (before:
// one per branch, 2051 us).
// CHECK: remark: cost: predicted {{.*}} (critical path of a block 515.6 us
cake.kernel @guarded_loads(%x: !cake.tensor<[K], f32> {cake.name = "x"},
                           %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N", "K"],
                grid = affine_map<()[n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %lane = cake.lane_id
  %sum = scf.for %k = %c0 to %kdim step %c4 iter_args(%s = %zero) -> (f32) {
    %s1 = scf.for %j = %c0 to %c4 step %c1 iter_args(%t = %s) -> (f32) {
      %kj = arith.addi %k, %j : index
      %in = arith.cmpi ult, %kj, %kdim : index
      %r = scf.if %in -> (f32) {
        %v = cake.load %x[%kj] : !cake.tensor<[K], f32> -> f32
        %u = arith.addf %t, %v : f32
        scf.yield %u : f32
      } else {
        scf.yield %t : f32
      }
      scf.yield %r : f32
    }
    scf.yield %s1 : f32
  }
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %sum, %y[%c0] masked : f32, !cake.tensor<[N], f32>
  }
  cake.return
}

// -----

// `if (k0 + 64 <= K)` in the loop of k0 with step 64: every iteration but a partial last one takes
// the then branch, so the else branch (a loop over the remainder) is not charged: 64 iterations
// of one load latency.
// CHECK: remark: cost: predicted {{.*}} (critical path of a block 32.06 us
cake.kernel @full_tiles(%x: !cake.tensor<[K], f32> {cake.name = "x"},
                        %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N", "K"],
                grid = affine_map<()[n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %lane = cake.lane_id
  %sum = scf.for %k0 = %c0 to %kdim step %c64 iter_args(%s = %zero) -> (f32) {
    %end = arith.addi %k0, %c64 : index
    %full = arith.cmpi ule, %end, %kdim : index
    %r = scf.if %full -> (f32) {
      %k = arith.addi %k0, %lane : index
      %v = cake.load %x[%k] : !cake.tensor<[K], f32> -> f32
      %u = arith.addf %s, %v : f32
      scf.yield %u : f32
    } else {
      %t = scf.for %j = %k0 to %kdim step %c1 iter_args(%a = %s) -> (f32) {
        %v = cake.load %x[%j] : !cake.tensor<[K], f32> -> f32
        %w = arith.addf %a, %v : f32
        scf.yield %w : f32
      }
      scf.yield %t : f32
    }
    scf.yield %r : f32
  }
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %sum, %y[%c0] masked : f32, !cake.tensor<[N], f32>
  }
  cake.return
}

// -----

// The same with `k0 + 1 <= K`, not a full-iteration test: the slower branch is charged.
// CHECK: remark: cost: predicted 131.3 ms
cake.kernel @not_a_tile_guard(%x: !cake.tensor<[K], f32> {cake.name = "x"},
                        %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N", "K"],
                grid = affine_map<()[n, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %lane = cake.lane_id
  %sum = scf.for %k0 = %c0 to %kdim step %c64 iter_args(%s = %zero) -> (f32) {
    %end = arith.addi %k0, %c1 : index
    %full = arith.cmpi ule, %end, %kdim : index
    %r = scf.if %full -> (f32) {
      %k = arith.addi %k0, %lane : index
      %v = cake.load %x[%k] : !cake.tensor<[K], f32> -> f32
      %u = arith.addf %s, %v : f32
      scf.yield %u : f32
    } else {
      %t = scf.for %j = %k0 to %kdim step %c1 iter_args(%a = %s) -> (f32) {
        %v = cake.load %x[%j] : !cake.tensor<[K], f32> -> f32
        %w = arith.addf %a, %v : f32
        scf.yield %w : f32
      }
      scf.yield %t : f32
    }
    scf.yield %r : f32
  }
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %sum, %y[%c0] masked : f32, !cake.tensor<[N], f32>
  }
  cake.return
}
