// RUN: cake-opt %s -split-input-file -o /dev/null \
// RUN:   --cake-print-cost="sizes=N=4096 profile=%S/Inputs/h200-test.json" 2>&1 | FileCheck %s

// A multiply feeding an add costs two FMA-pipe instructions; contracted (cake-tactic-contract),
// the pair is one fma.rn, so the multiply's instruction is free (its flops still count).
// 4096 iterations x 16 elements x 128 threads / (51e12 / 2 / 132 per second):
// two instructions per element 86.84 us, one 43.42 us.
// CHECK: remark: cost: predicted 0.09085 ms on h200-test v1: compute-bound (issue: 0.08685 ms (fma 0.08685 ms
cake.kernel @separate(%y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (132)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %w = arith.constant dense<1.5> : vector<16xf32>
  %ndim = cake.problem_size "N"
  %tid = cake.thread_id x
  %acc = scf.for %k = %c0 to %ndim step %c1 iter_args(%a = %zero) -> (vector<16xf32>) {
    %p = arith.mulf %a, %w : vector<16xf32>
    %t = arith.addf %p, %w : vector<16xf32>
    scf.yield %t : vector<16xf32>
  }
  %e = vector.extract %acc[0] : f32 from vector<16xf32>
  cake.store %e, %y[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

// CHECK: remark: cost: predicted 0.04743 ms on h200-test v1: compute-bound (issue: 0.04343 ms (fma 0.04342 ms
cake.kernel @contracted(%y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (132)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %w = arith.constant dense<1.5> : vector<16xf32>
  %ndim = cake.problem_size "N"
  %tid = cake.thread_id x
  %acc = scf.for %k = %c0 to %ndim step %c1 iter_args(%a = %zero) -> (vector<16xf32>) {
    %p = arith.mulf %a, %w fastmath<contract> : vector<16xf32>
    %t = arith.addf %p, %w fastmath<contract> : vector<16xf32>
    scf.yield %t : vector<16xf32>
  }
  %e = vector.extract %acc[0] : f32 from vector<16xf32>
  cake.store %e, %y[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
