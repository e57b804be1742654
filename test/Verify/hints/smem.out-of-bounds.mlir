// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (smem.out-of-bounds), lib/Verify/VerifySmem.cpp:79:
//   "give dimension 0 of the buffer 4 elements, or bound the index below 3"
//   (for a negative index: "keep the index non-negative (clamp it or add a halo offset)")
// The kernel indexes a ring of 3 stages with kt mod 4 (the ring of @out_of_bounds in
// cake-verify-smem.mlir). Applied literally (first option): !cake.smem<4x128xf32>. Honest.
// (For a neighbour read tid + 1 of a 128-element line, the first option alone, 129 elements,
// leaves element 128 unwritten: shape.uninitialized-smem, reported with it already, still needs
// the halo element stored.)

cake.kernel @ring(%x: !cake.tensor<[K, 128], f32> {cake.name = "x"},
                  %y: !cake.tensor<[K, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-note @+1 {{the buffer '!cake.smem<3x128xf32>' is allocated here}}
  %ring = cake.alloc_smem : !cake.smem<3x128xf32>
  %tid = cake.thread_id x
  %k = cake.problem_size "K"
  scf.for %kt = %c0 to %k step %c1 {
    %slot = arith.remui %kt, %c4 : index
    %v = cake.load %x[%kt, %tid] : !cake.tensor<[K, 128], f32> -> f32
    // expected-error @+2 {{[smem.out-of-bounds] expected index 0 in [0, 3), but in thread 0 it reaches 3}}
    // expected-note @+1 {{fix: give dimension 0 of the buffer 4 elements, or bound the index below 3}}
    cake.store %v, %ring[%slot, %tid] : f32, !cake.smem<3x128xf32>
    // expected-error @+2 {{[smem.out-of-bounds] expected index 0 in [0, 3), but in thread 0 it reaches 3}}
    // expected-note @+1 {{fix: give dimension 0 of the buffer 4 elements, or bound the index below 3}}
    %w = cake.load %ring[%slot, %tid] : !cake.smem<3x128xf32> -> f32
    cake.store %w, %y[%kt, %tid] : f32, !cake.tensor<[K, 128], f32>
  }
  cake.return
}

// -----

cake.kernel @ring(%x: !cake.tensor<[K, 128], f32> {cake.name = "x"},
                  %y: !cake.tensor<[K, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ring = cake.alloc_smem : !cake.smem<4x128xf32>
  %tid = cake.thread_id x
  %k = cake.problem_size "K"
  scf.for %kt = %c0 to %k step %c1 {
    %slot = arith.remui %kt, %c4 : index
    %v = cake.load %x[%kt, %tid] : !cake.tensor<[K, 128], f32> -> f32
    cake.store %v, %ring[%slot, %tid] : f32, !cake.smem<4x128xf32>
    %w = cake.load %ring[%slot, %tid] : !cake.smem<4x128xf32> -> f32
    cake.store %w, %y[%kt, %tid] : f32, !cake.tensor<[K, 128], f32>
  }
  cake.return
}
