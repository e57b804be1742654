// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (smem.over-limit), lib/Verify/VerifySmem.cpp:182 (text built at 160-180):
//   "free at least 13312 bytes: e.g. give the biggest buffer 3 instead of 4 stages (leading
//    dimension; keep its pipeline's stages equal), or use smaller tiles"
// The text quoted above was NOT HONEST. The kernel is a 4-stage ring indexed by kt mod 4 (no cake.pipeline).
// Section 2 applies the hint literally (!cake.smem<3x128x120xf32>, nothing else): the slot index
// still runs mod 4, and two smem.out-of-bounds findings appear, whose own hint ("give dimension 0
// of the buffer 4 elements") leads straight back to smem.over-limit. Section 3 is the fix a
// complete hint leads to: 3 stages and the slot taken mod 3. Clean.
// (For a buffer whose leading dimension is not a stage count, e.g. a 256x232xf32 tile, the same
// hint says "give the biggest buffer 250 instead of 256 stages", which cuts rows off the tile.)
// Section 1 expects the fixed hint.

// expected-error @+2 {{[smem.over-limit] expected at most 232448 bytes of shared memory on sm_90a, got 245760 (0 bytes of alignment padding, 0 bytes of dynamic_smem)}}
// expected-note @+1 {{fix: free at least 13312 bytes: e.g. give the biggest buffer 3 instead of 4 stages (leading dimension), and take its slot index mod 3 instead of mod 4; or use smaller tiles}}
cake.kernel @ring(%x: !cake.tensor<[K, 128], f32> {cake.name = "x"},
                  %y: !cake.tensor<[K, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["K"],
                grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-note @+1 {{245760 bytes at offset 0 (!cake.smem<4x128x120xf32>)}}
  %ring = cake.alloc_smem : !cake.smem<4x128x120xf32>
  %tid = cake.thread_id x
  %k = cake.problem_size "K"
  scf.for %kt = %c0 to %k step %c1 {
    %slot = arith.remui %kt, %c4 : index
    %v = cake.load %x[%kt, %tid] : !cake.tensor<[K, 128], f32> -> f32
    cake.store %v, %ring[%slot, %tid, %c0] : f32, !cake.smem<4x128x120xf32>
    %w = cake.load %ring[%slot, %tid, %c0] : !cake.smem<4x128x120xf32> -> f32
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
  // expected-note @+1 {{the buffer '!cake.smem<3x128x120xf32>' is allocated here}}
  %ring = cake.alloc_smem : !cake.smem<3x128x120xf32>
  %tid = cake.thread_id x
  %k = cake.problem_size "K"
  scf.for %kt = %c0 to %k step %c1 {
    %slot = arith.remui %kt, %c4 : index
    %v = cake.load %x[%kt, %tid] : !cake.tensor<[K, 128], f32> -> f32
    // expected-error @+2 {{[smem.out-of-bounds] expected index 0 in [0, 3), but in thread 0 it reaches 3}}
    // expected-note @+1 {{fix: give dimension 0 of the buffer 4 elements, or bound the index below 3}}
    cake.store %v, %ring[%slot, %tid, %c0] : f32, !cake.smem<3x128x120xf32>
    // expected-error @+2 {{[smem.out-of-bounds] expected index 0 in [0, 3), but in thread 0 it reaches 3}}
    // expected-note @+1 {{fix: give dimension 0 of the buffer 4 elements, or bound the index below 3}}
    %w = cake.load %ring[%slot, %tid, %c0] : !cake.smem<3x128x120xf32> -> f32
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
  %c3 = arith.constant 3 : index
  %ring = cake.alloc_smem : !cake.smem<3x128x120xf32>
  %tid = cake.thread_id x
  %k = cake.problem_size "K"
  scf.for %kt = %c0 to %k step %c1 {
    %slot = arith.remui %kt, %c3 : index
    %v = cake.load %x[%kt, %tid] : !cake.tensor<[K, 128], f32> -> f32
    cake.store %v, %ring[%slot, %tid, %c0] : f32, !cake.smem<3x128x120xf32>
    %w = cake.load %ring[%slot, %tid, %c0] : !cake.smem<3x128x120xf32> -> f32
    cake.store %w, %y[%kt, %tid] : f32, !cake.tensor<[K, 128], f32>
  }
  cake.return
}
