// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (ops.atomic), lib/Verify/VerifyOps.cpp:62:
//   "express it with cake ops (loads, stores, reductions, barriers) or arith/math/scf/vector; if
//    the task needs it, allow it with cake-verify{allow=ops.atomic}"
// The kernel sums x into total with llvm.atomicrmw fadd on a raw pointer (llvm.mlir.zero, also a
// finding: ops.raw-intrinsic). Applied: cake.atomic_add %v, %total[%c0]. Clean and right, but
// VAGUE: the hint's list (loads, stores, reductions, barriers) does not mention cake.atomic_add,
// the op that replaces an atomic.

cake.kernel @count(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                   %total: !cake.tensor<[1], f32> {cake.name = "total"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c32 : index
  %i = arith.addi %base, %tid : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> f32
  // expected-error @+2 {{'llvm.mlir.zero' op [ops.raw-intrinsic] expected only cake, arith, math, scf and vector ops in a kernel, got a raw intrinsic}}
  // expected-note @+1 {{fix: express it with cake ops (loads, stores, reductions, barriers) or arith/math/scf/vector; if the task needs it, allow it with cake-verify{allow=ops.raw-intrinsic}}}
  %p = llvm.mlir.zero : !llvm.ptr<1>
  // expected-error @+2 {{'llvm.atomicrmw' op [ops.atomic] expected only cake, arith, math, scf and vector ops in a kernel, got an atomic memory operation}}
  // expected-note @+1 {{fix: express it with cake ops (loads, stores, reductions, barriers) or arith/math/scf/vector; if the task needs it, allow it with cake-verify{allow=ops.atomic}}}
  %old = llvm.atomicrmw fadd %p, %v monotonic : !llvm.ptr<1>, f32
  cake.return
}

// -----

cake.kernel @count(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                   %total: !cake.tensor<[1], f32> {cake.name = "total"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c32 : index
  %i = arith.addi %base, %tid : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> f32
  cake.atomic_add %v, %total[%c0] : f32, !cake.tensor<[1], f32>
  cake.return
}
