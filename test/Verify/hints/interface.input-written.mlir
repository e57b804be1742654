// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify=interface=%S/../Inputs/copy-interface.json -o /dev/null

// Hint under test (interface.input-written), lib/Verify/VerifyInterface.cpp:276:
//   "write results only into the outputs ('y')"
// The in-place hack of cake-verify-interface.mlir: the copy kernel stores alpha * x back into x
// and never writes y (both findings at once). Applied literally: the store's destination %x ->
// %y. Honest. (For a kernel that computes nothing, "store the results into 'y'" names the
// destination but not the computation: not mechanical there, nor can it be.)

// expected-error @+3 {{[interface.output-unwritten] expected output 'y' to be written, but no op writes it}}
// expected-note @+2 {{fix: store the results into 'y' (cake.store, a fragment store or a TMA store)}}
// expected-note @+1 {{the task declares 'x' an input of @copy}}
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
  // expected-error @+2 {{[interface.input-written] expected input 'x' to be read only, but this op writes it}}
  // expected-note @+1 {{fix: write results only into the outputs ('y')}}
  cake.store %s, %x[%row, %col] masked : f32, !cake.tensor<[M, N], f32>
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
