// A buggy kernel written for session 32's probe of the verifier (in no other file then),
// and the findings cake-verify gave it.
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: error: {{.*}}[shape.out-of-bounds]
// BUG: grid-stride, 4 scalar elements per thread per step; only the first is bounded by the loop
// (i < N), elements i+1..i+3 are loaded/stored unmasked past N when N mod 4 != 0.
cake.kernel @vadd_gs(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                     %y: !cake.tensor<[N], f32> {cake.name = "y"},
                     %z: !cake.tensor<[N], f32> {cake.name = "z"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (132)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c1024 = arith.constant 1024 : index
  %n = cake.problem_size "N"
  %bid = cake.block_id x
  %nb = cake.grid_dim x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c1024 : index
  %off = arith.muli %tid, %c4 : index
  %start = arith.addi %base, %off : index
  %stride = arith.muli %nb, %c1024 : index
  scf.for %i = %start to %n step %stride {
    scf.for %e = %c0 to %c4 step %c1 {
      %k = arith.addi %i, %e : index
      %a = cake.load %x[%k] : !cake.tensor<[N], f32> -> f32
      %b = cake.load %y[%k] : !cake.tensor<[N], f32> -> f32
      %s = arith.addf %a, %b : f32
      cake.store %s, %z[%k] : f32, !cake.tensor<[N], f32>
    }
  }
  cake.return
}
