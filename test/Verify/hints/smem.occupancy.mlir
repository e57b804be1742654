// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (smem.occupancy), lib/Verify/VerifySmem.cpp:112:
//   "use at most 28160 bytes per block, or set min_blocks_per_sm = 7"
// The kernel (@occupancy_over of cake-verify-smem.mlir) asks for 8 blocks per SM of 28164 bytes.
// Applied literally (second option): min_blocks_per_sm = 7. The attribute is a launch bound, not
// a computation, so the kernel computes the same. Honest.

// expected-error @+2 {{[smem.occupancy] min_blocks_per_sm = 8 blocks of 28164 bytes of shared memory (+ 1024 reserved each) do not fit in the 233472 bytes of an SM on sm_90a: 7 fit}}
// expected-note @+1 {{fix: use at most 28160 bytes per block, or set min_blocks_per_sm = 7}}
cake.kernel @occupancy_over() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>, min_blocks_per_sm = 8 : i64} {
  %a = cake.alloc_smem : !cake.smem<7041xf32>
  cake.return
}

// -----

cake.kernel @occupancy_over() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>, min_blocks_per_sm = 7 : i64} {
  %a = cake.alloc_smem : !cake.smem<7041xf32>
  cake.return
}
