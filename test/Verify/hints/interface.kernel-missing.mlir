// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify=interface=%S/../Inputs/copy-interface.json -o /dev/null

// Hint under test (interface.kernel-missing), lib/Verify/VerifyInterface.cpp:186:
//   "keep the kernel's name @copy"
// The kernel is the task's copy kernel renamed @copy_fast. Applied: rename it back to @copy.
// Honest (wording: "keep" reads oddly once the name has changed; "name the kernel @copy").

// expected-error @below {{[interface.kernel-missing] expected a cake.kernel named @copy (the task's interface), found none}}
// expected-note @below {{fix: keep the kernel's name @copy}}
module {
cake.kernel @copy_fast(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                  %y: !cake.tensor<[M, N], f32> {cake.name = "y"}, %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m, n ceildiv 32)>} {
  %c32 = arith.constant 32 : index
  %row = cake.block_id x
  %cb = cake.block_id y
  %tid = cake.thread_id x
  %c0 = arith.muli %cb, %c32 : index
  %col = arith.addi %c0, %tid : index
  %v = cake.load %x[%row, %col] masked : !cake.tensor<[M, N], f32> -> f32
  %s = arith.mulf %v, %alpha : f32
  cake.store %s, %y[%row, %col] masked : f32, !cake.tensor<[M, N], f32>
  cake.return
}
}

// -----

cake.kernel @copy(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                  %y: !cake.tensor<[M, N], f32> {cake.name = "y"}, %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m, n ceildiv 32)>} {
  %c32 = arith.constant 32 : index
  %row = cake.block_id x
  %cb = cake.block_id y
  %tid = cake.thread_id x
  %c0 = arith.muli %cb, %c32 : index
  %col = arith.addi %c0, %tid : index
  %v = cake.load %x[%row, %col] masked : !cake.tensor<[M, N], f32> -> f32
  %s = arith.mulf %v, %alpha : f32
  cake.store %s, %y[%row, %col] masked : f32, !cake.tensor<[M, N], f32>
  cake.return
}
