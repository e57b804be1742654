// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify=interface=%S/../Inputs/copy-interface.json -o /dev/null

// Hint under test (interface.symbols), lib/Verify/VerifyInterface.cpp:233:
//   "declare symbols = ["M", "N"]"
// NOT HONEST as written. Section 1: the copy kernel declares symbols ["N", "M"] with its grid map
// written over them, ()[n, m] -> (m, n ceildiv 32). Section 2 applies the hint literally (only
// the symbols list): clean, but WRONG: affine symbols bind by position, so the grid becomes
// (N, M ceildiv 32) and covers the wrong rows and columns whenever M != N. cake-verify misses it
// (its shape probes seem to use M = N). Section 3 is the fix a complete hint leads to: the
// symbols list and the grid map's symbol list both in the order [M, N]. Clean and right.

// expected-error @+2 {{[interface.symbols] expected symbols [M, N], got [N, M]}}
// expected-note @+1 {{fix: declare symbols = ["M", "N"]}}
cake.kernel @copy(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                  %y: !cake.tensor<[M, N], f32> {cake.name = "y"}, %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["N", "M"],
                grid = affine_map<()[n, m] -> (m, n ceildiv 32)>} {
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

// -----

cake.kernel @copy(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                  %y: !cake.tensor<[M, N], f32> {cake.name = "y"}, %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[n, m] -> (m, n ceildiv 32)>} {
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
