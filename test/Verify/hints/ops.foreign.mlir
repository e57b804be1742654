// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (ops.foreign), lib/Verify/VerifyOps.cpp:62:
//   "express it with cake ops (loads, stores, reductions, barriers) or arith/math/scf/vector; if
//    the task needs it, allow it with cake-verify{allow=ops.foreign}"
// The kernel allocates an unused memref.alloc scratch buffer. Applied: delete it (scratch memory
// is cake.alloc_smem or registers). Clean. Vague-ish: the hint does not say which cake op replaces
// a foreign op (here cake.alloc_smem), nor, at module level, that a func.func helper must be
// inlined into the kernel.

cake.kernel @scratch(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                     %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c32 : index
  %i = arith.addi %base, %tid : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> f32
  // expected-error @+2 {{'memref.alloc' op [ops.foreign] expected only cake, arith, math, scf and vector ops in a kernel, got an op CAKE does not model}}
  // expected-note @+1 {{fix: express it with cake ops (loads, stores, reductions, barriers) or arith/math/scf/vector; if the task needs it, allow it with cake-verify{allow=ops.foreign}}}
  %m = memref.alloc() : memref<4xf32>
  cake.store %v, %y[%i] masked : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

cake.kernel @scratch(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                     %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c32 : index
  %i = arith.addi %base, %tid : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %y[%i] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
