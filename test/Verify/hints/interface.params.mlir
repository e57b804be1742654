// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify=interface=%S/../Inputs/copy-interface.json -o /dev/null

// Hint under test (interface.params), lib/Verify/VerifyInterface.cpp:221:
//   "keep the task's parameters, in order: 'x' (tensor f32 [M, N]), 'y' (tensor f32 [M, N]),
//    'alpha' (scalar f32)"
// The copy kernel names its output 'out'. Applied literally: cake.name = "y". Honest (a change of
// element type or a dropped parameter also needs the body changed, which the hint cannot say).

// expected-error @+3 {{[interface.params] expected the task's 3 parameters, got 3 with 1 different}}
// expected-note @+2 {{parameter 1: expected 'y' (tensor f32 [M, N]), got 'out' (tensor f32 [M, N])}}
// expected-note @+1 {{fix: keep the task's parameters, in order: 'x' (tensor f32 [M, N]), 'y' (tensor f32 [M, N]), 'alpha' (scalar f32)}}
cake.kernel @copy(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                  %y: !cake.tensor<[M, N], f32> {cake.name = "out"}, %alpha: f32 {cake.name = "alpha"})
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
