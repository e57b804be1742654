// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (shape.partial-collective), lib/Verify/VerifyShapes.cpp:757:
//   "execute the op in every thread and mask what it combines instead (out-of-range lanes
//    contribute the operation's identity, e.g. -inf to a max)"
// The kernel (@short_rows_partial_warp of cake-verify-shapes.mlir) skips the warp reduction in
// the lanes past N. Applied literally: drop the condition on N around the load and the reduce,
// make the load `masked` (pad 0, the identity of a sum). Honest.

cake.kernel @short_rows(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                        %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c0 = arith.constant 0 : index
  %n = cake.problem_size "N"
  %row = cake.block_id x
  %lane = cake.lane_id
  %inside = arith.cmpi ult, %lane, %n : index
  // expected-note @+1 {{the threads split here, on a problem size}}
  scf.if %inside {
    %v = cake.load %x[%row, %lane] : !cake.tensor<[M, N], f32> -> f32
    // expected-error @+2 {{[shape.partial-collective] expected all 32 threads of warp 0 to execute this op for every shape the manifest allows, but with M = 3, N = 3 (block (0, 0, 0)) 3 do}}
    // expected-note @+1 {{fix: execute the op in every thread and mask what it combines instead (out-of-range lanes contribute the operation's identity, e.g. -inf to a max)}}
    %s = cake.warp_reduce sum %v : f32
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      cake.store %s, %out[%row] : f32, !cake.tensor<[M], f32>
    }
  }
  cake.return
}

// -----

cake.kernel @short_rows(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                        %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 32>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c0 = arith.constant 0 : index
  %row = cake.block_id x
  %lane = cake.lane_id
  %v = cake.load %x[%row, %lane] masked : !cake.tensor<[M, N], f32> -> f32
  %s = cake.warp_reduce sum %v : f32
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %s, %out[%row] : f32, !cake.tensor<[M], f32>
  }
  cake.return
}
