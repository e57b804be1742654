// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (shape.out-of-bounds), lib/Verify/VerifyShapes.cpp:713:
//   "add `masked` to the access (out-of-range elements read as the pad value and are not
//    written), or bound the index by N in the loop or the grid"
// The kernel (@axpy_unmasked of cake-verify-shapes.mlir) rounds the grid up but does not mask.
// Applied literally: `masked` on the load and on the store (each gets its own finding). The tail
// threads read the pad and write nothing. Honest.

cake.kernel @axpy_unmasked(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                           %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c256 = arith.constant 256 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c256 : index
  %i = arith.addi %base, %tid : index
  // expected-error @+2 {{[shape.out-of-bounds] expected index 0 of 'x' in [0, N) for every shape the manifest allows, but with N = 3 (block (0, 0, 0)) thread 3 reaches 3}}
  // expected-note @+1 {{fix: add `masked` to the access (out-of-range elements read as the pad value and are not written), or bound the index by N in the loop or the grid}}
  %v = cake.load %x[%i] : !cake.tensor<[N], f32> -> f32
  // expected-error @+2 {{[shape.out-of-bounds] expected index 0 of 'y' in [0, N)}}
  // expected-note @+1 {{fix: add `masked` to the access}}
  cake.store %v, %y[%i] : f32, !cake.tensor<[N], f32>
  cake.return
}

// -----

cake.kernel @axpy_unmasked(%x: !cake.tensor<[N], f32> {cake.name = "x"},
                           %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c256 = arith.constant 256 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c256 : index
  %i = arith.addi %base, %tid : index
  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %y[%i] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
