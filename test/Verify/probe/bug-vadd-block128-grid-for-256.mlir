// A buggy kernel written for session 32's probe of the verifier (in no other file then),
// and the findings cake-verify gave it.
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: error: {{.*}}[shape.uncovered-output]
// BUG: block shrunk to 128 threads but grid/indexing still assume 1024 elements per block (256 x 4): elements 512..1023 of each block are never written.

cake.kernel @vector_add(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                        %y: !cake.tensor<[N], f32> {cake.name = "y"},
                        %z: !cake.tensor<[N], f32> {cake.name = "z"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 1024)>} {
  %c4 = arith.constant 4 : index
  %c1024 = arith.constant 1024 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c1024 : index
  %off = arith.muli %tid, %c4 : index
  %i = arith.addi %base, %off : index
  %a = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %b = cake.load %y[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>
  %s = arith.addf %a, %b : vector<4xf32>
  cake.store %s, %z[%i] masked : vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}
