// Vector add: z = x + y. Each thread moves 16-byte vectors (4 x f32); a block covers 1024
// elements. The ragged tail (N not a multiple of 4 or 1024) goes through masked accesses.
//
// REQUIRES: ptxas
// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-translate %s --emit=cubin -o %t.cubin --manifest %t.json
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// NVVM: llvm.func @vector_add
// NVVM-SAME: nvvm.kernel
// PTX: .entry vector_add
// PTX: ld.global.v4.b32
// PTX: ld.global.v4.b32
// PTX: st.global.v4.b32
// MANIFEST: "entry": "vector_add"
// MANIFEST: "grid": [
// MANIFEST-NEXT: "ceildiv(N, 1024)"

cake.kernel @vector_add(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                        %y: !cake.tensor<[N], f32> {cake.name = "y"},
                        %z: !cake.tensor<[N], f32> {cake.name = "z"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
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
