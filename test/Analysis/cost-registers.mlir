// RUN: cake-opt %s -o /dev/null \
// RUN:   --cake-print-cost="sizes=N=4096 profile=%S/Inputs/h200-test.json" 2>&1 | FileCheck %s

// The register estimate (20 + 2 x the 32-bit words of the largest set of loop-carried values) counts
// an accumulator once when an inner loop carries the outer loop's carried value on: 20 + 2 x 64.
// (It counted it once per loop, 255 after the cap: a register-blocked GEMM's K-loop over BK-loops
// then "did not fit" at 512 threads.)
// CHECK: remark: cost occupancy: 1 block(s)/SM limited by registers (256 threads, 148 registers from estimate
cake.kernel @nested_accumulator(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                                %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %ndim = cake.problem_size "N"
  %tid = cake.thread_id x
  %acc = scf.for %k0 = %c0 to %ndim step %c8 iter_args(%a = %zero) -> (vector<64xf32>) {
    %b = scf.for %j = %c0 to %c8 step %c1 iter_args(%s = %a) -> (vector<64xf32>) {
      %k = arith.addi %k0, %j : index
      %v = cake.load %x[%k] masked : !cake.tensor<[N], f32> -> f32
      %w = vector.broadcast %v : f32 to vector<64xf32>
      %t = arith.addf %s, %w : vector<64xf32>
      scf.yield %t : vector<64xf32>
    }
    scf.yield %b : vector<64xf32>
  }
  %e = vector.extract %acc[0] : f32 from vector<64xf32>
  cake.store %e, %y[%tid] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
