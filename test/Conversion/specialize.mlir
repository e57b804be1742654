// A kernel's `specialize` fixes problem sizes at compile time. The ABI is unchanged (the symbol is
// still the last i64 parameter), but the lowering reads the constant: `cake.problem_size "D"` and
// the row stride of x fold, so the loop over D has a constant trip count. The manifest requires
// the size it was compiled for. cake-translate --specialize sets the same attribute.
// RUN: cake-opt %s | cake-opt | FileCheck %s --check-prefix=ROUND
// RUN: cake-opt %s --cake-lower-to-nvvm | FileCheck %s --check-prefix=FIXED
// RUN: cake-opt %S/Inputs/row-sum.mlir --cake-lower-to-nvvm | FileCheck %s --check-prefix=GENERIC
// RUN: cake-translate %s --emit=manifest | FileCheck %s --check-prefix=MANIFEST
// RUN: cake-translate %S/Inputs/row-sum.mlir --emit=manifest | FileCheck %s --check-prefix=GENERIC-MANIFEST
// RUN: cake-translate %s --emit=ptx > %t.attr.ptx
// RUN: cake-translate %S/Inputs/row-sum.mlir --emit=ptx --specialize=D=53 > %t.flag.ptx
// RUN: diff %t.attr.ptx %t.flag.ptx
// RUN: cake-translate %S/Inputs/row-sum.mlir --emit=manifest --specialize="M=7, D=53" | FileCheck %s --check-prefix=BOTH
// The option replaces a kernel's own value.
// RUN: cake-translate %s --emit=manifest --specialize=D=64 | FileCheck %s --check-prefix=OVERRIDE

// ROUND: specialize = {D = 53 : i64}, symbols = ["M", "D"]
// FIXED-LABEL: llvm.func @row_sum(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>, %arg2: i64, %arg3: i64)
// FIXED-NOT:   %arg3
// FIXED:       %[[D:.*]] = llvm.mlir.constant(53 : index) : i64
// FIXED-NOT:   %arg3
// FIXED:       llvm.icmp "slt" %{{.*}}, %[[D]] : i64
// FIXED-NOT:   %arg3
// FIXED:       llvm.mul %{{.*}}, %[[D]] : i64
// FIXED-NOT:   %arg3
// FIXED:       llvm.return
// GENERIC-LABEL: llvm.func @row_sum(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>, %arg2: i64, %arg3: i64)
// GENERIC:       llvm.mul %{{.*}}, %arg3 : i64

// MANIFEST:      "constraints": [
// MANIFEST-NEXT:   "D == 53"
// MANIFEST:      "symbols": [
// MANIFEST-NEXT:   "M",
// MANIFEST-NEXT:   "D"
// GENERIC-MANIFEST-NOT: ==
// BOTH:          "constraints": [
// BOTH-NEXT:       "M == 7",
// BOTH-NEXT:       "D == 53"
// OVERRIDE:      "D == 64"
cake.kernel @row_sum(%x: !cake.tensor<[M, D], f32> {cake.name = "x"},
                     %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "D"],
                grid = affine_map<()[m, d] -> (m ceildiv 32)>, specialize = {D = 53}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %d = cake.problem_size "D"
  %m = cake.problem_size "M"
  %b = cake.block_id x
  %t = cake.thread_id x
  %base = arith.muli %b, %c32 : index
  %row = arith.addi %base, %t : index
  %inside = arith.cmpi ult, %row, %m : index
  scf.if %inside {
    %sum = scf.for %j = %c0 to %d step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = cake.load %x[%row, %j] : !cake.tensor<[M, D], f32> -> f32
      %next = arith.addf %acc, %v : f32
      scf.yield %next : f32
    }
    cake.store %sum, %y[%row] : f32, !cake.tensor<[M], f32>
  }
  cake.return
}
