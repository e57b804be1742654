// index-bitwidth=32 lowers `index` to i32: a masked access computes its row offset, bounds and
// column in i32 and sign-extends the element offset once, at the address. The default keeps
// i64 arithmetic. The manifest of a 32-bit build says so and bounds every tensor's offsets and
// every grid dimension's threads below 2^30 (index arithmetic up to twice either fits in i32).
// RUN: cake-opt %s --cake-lower-to-nvvm=index-bitwidth=32 | FileCheck %s --check-prefix=I32
// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s --check-prefix=I64
// RUN: cake-translate %s --emit=manifest --index-bitwidth=32 | FileCheck %s --check-prefix=MANIFEST
// RUN: cake-translate %s --emit=manifest | FileCheck %s --check-prefix=MANIFEST64 --implicit-check-not=index_bits --implicit-check-not=1073741824
// RUN: cake-translate %s --emit=ptx --index-bitwidth=32 | FileCheck %s --check-prefix=PTX

// I32-LABEL: llvm.func @scale_rows
// I32:      %[[D:.*]] = llvm.trunc %arg3 : i64 to i32
// I32:      %[[ROWOFF:.*]] = llvm.mul %{{.*}}, %[[D]] : i32
// I32:      %[[OFF:.*]] = llvm.add %[[ROWOFF]], %{{.*}} : i32
// I32:      %[[WIDE:.*]] = llvm.sext %[[OFF]] : i32 to i64
// I32:      llvm.getelementptr %arg0[%[[WIDE]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// I32:      llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
// I64-LABEL: llvm.func @scale_rows
// I64:      %[[ROWOFF:.*]] = llvm.mul %{{.*}}, %arg3 : i64
// I64:      llvm.getelementptr %arg0[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// I64:      llvm.icmp "ult" %{{.*}}, %arg2 : i64

// MANIFEST:      "constraints": [
// MANIFEST-NEXT:   "M * 128 <= 1073741824",
// MANIFEST-NEXT:   "ceildiv(D, 128) <= 1073741824",
// MANIFEST-NEXT:   "M >= 1",
// MANIFEST-NEXT:   "D >= 1",
// MANIFEST-NEXT:   "M * D <= 1073741824"
// MANIFEST-NEXT: ],
// MANIFEST:      "entry": "scale_rows",
// MANIFEST:      "index_bits": 32,
// MANIFEST64:    "entry": "scale_rows",
// PTX:           mul.wide.s32
// PTX-NOT:       mul.lo.s64
cake.kernel @scale_rows(%x: !cake.tensor<[M, D], f32> {cake.name = "x"},
                        %y: !cake.tensor<[M, D], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "D"],
                grid = affine_map<()[m, d] -> (m, d ceildiv 128)>} {
  %c128 = arith.constant 128 : index
  %row = cake.block_id x
  %by = cake.block_id y
  %t = cake.thread_id x
  %c0 = arith.muli %by, %c128 : index
  %col = arith.addi %c0, %t : index
  %v = cake.load %x[%row, %col] masked : !cake.tensor<[M, D], f32> -> f32
  %w = arith.addf %v, %v : f32
  cake.store %w, %y[%row, %col] masked : f32, !cake.tensor<[M, D], f32>
  cake.return
}

// A tensor with explicit strides is bounded by its largest offset; a static one within the bound
// adds nothing.
// MANIFEST:      "(M - 1) * (S) + (4 - 1) * (1) < 1073741824"
// MANIFEST-NOT:  "64 * 4
// MANIFEST:      "entry": "strided_rows",
cake.kernel @strided_rows(%x: !cake.tensor<[M, 4], f32, strides [S, 1]> {cake.name = "x"},
                          %t: !cake.tensor<[64, 4], f32> {cake.name = "t"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "S"],
                grid = affine_map<()[m, s] -> (m)>} {
  %c0 = arith.constant 0 : index
  %row = cake.block_id x
  %v = cake.load %x[%row, %c0] masked : !cake.tensor<[M, 4], f32, strides [S, 1]> -> f32
  cake.store %v, %t[%c0, %c0] : f32, !cake.tensor<[64, 4], f32>
  cake.return
}
