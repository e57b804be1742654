// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (shape.pad-identity), lib/Verify/VerifyShapes.cpp:402:
//   "pad with the identity (`masked pad(%c : f32)` with %c = 0xFF800000), or write `pad(...)`
//    explicitly if 0 is right for the data"
// The kernel (@chunked_max_default_pad of cake-verify-shapes.mlir) pads a max with the default 0.
// Applied literally: `masked pad(%ninf : f32)` with the kernel's %ninf = 0xFF800000. The padded
// lanes no longer raise a negative row's max to 0. Honest.

cake.kernel @chunked_max_default_pad(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                                     %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %ninf = arith.constant 0xFF800000 : f32
  %n = cake.problem_size "N"
  %row = cake.block_id x
  %lane = cake.lane_id
  %chunks = arith.ceildivui %n, %c32 : index
  %end = arith.muli %chunks, %c32 : index
  %m = scf.for %j0 = %c0 to %end step %c32 iter_args(%acc = %ninf) -> (f32) {
    %j = arith.addi %j0, %lane : index
    // expected-error @+2 {{[shape.pad-identity] expected the padding of a masked load that feeds a max to be the max's identity (-inf), but it is the default 0: with M = 3, N = 3 (block (0, 0, 0)) thread 3 pads index 1 past N}}
    // expected-note @+1 {{fix: pad with the identity (`masked pad(%c : f32)` with %c = 0xFF800000), or write `pad(...)` explicitly if 0 is right for the data}}
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    // expected-note @+1 {{the padded elements reach this max}}
    %acc2 = arith.maximumf %acc, %v : f32
    scf.yield %acc2 : f32
  }
  %r = cake.warp_reduce max %m : f32
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %r, %y[%row] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}

// -----

cake.kernel @chunked_max_default_pad(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                                     %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %ninf = arith.constant 0xFF800000 : f32
  %n = cake.problem_size "N"
  %row = cake.block_id x
  %lane = cake.lane_id
  %chunks = arith.ceildivui %n, %c32 : index
  %end = arith.muli %chunks, %c32 : index
  %m = scf.for %j0 = %c0 to %end step %c32 iter_args(%acc = %ninf) -> (f32) {
    %j = arith.addi %j0, %lane : index
    %v = cake.load %x[%row, %j] masked pad(%ninf : f32) : !cake.tensor<[M, N], f32> -> f32
    %acc2 = arith.maximumf %acc, %v : f32
    scf.yield %acc2 : f32
  }
  %r = cake.warp_reduce max %m : f32
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %r, %y[%row] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}
