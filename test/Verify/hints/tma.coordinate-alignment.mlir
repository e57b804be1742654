// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (tma.coordinate-alignment, an error when provably misaligned, a warning when
// unknown), lib/Verify/VerifyTma.cpp:156 and :163:
//   "make the coordinate a multiple of 4 (round it down and skip the extra elements, or pad the rows)"
// Kernel 1 starts each block's 1-D copy at base + 2 (2 modulo 4); rounded down to base (the
// elements the block stores) it is clean and correct. Honest for this error case. For an unknown
// start (the warning), rounding down silences the warning but the tile then starts up to 3 elements
// early: "skip the extra elements" needs a box 3 elements longer and a shifted read, which the hint
// does not say (see the report); that case is not tested here.

cake.kernel @misaligned(%v: !cake.tensor<[L], f32> {cake.name = "v"},
    %tv: !cake.tma<[L], f32, box [256]> {cake.describes = "v"},
    %w: !cake.tensor<[L], f32> {cake.name = "w"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["L"],
                grid = affine_map<()[l] -> (l ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %buf = cake.alloc_smem : !cake.smem<256xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %start = arith.addi %base, %c2 : index
  scf.if %first {
    cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 1024 : !cake.mbarriers<1>
    // expected-error @+2 {{'cake.tma.load' op [tma.coordinate-alignment] expected a 1-D copy to start 16-byte aligned (a multiple of 4 elements), got a coordinate that is 2 modulo 4: a misaligned start faults}}
    // expected-note @+1 {{fix: make the coordinate a multiple of 4 (round it down and skip the extra elements, or pad the rows)}}
    cake.tma.load %tv[%start], %buf[], %bar[%c0] : !cake.tma<[L], f32, box [256]>, !cake.smem<256xf32>, !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %off = arith.muli %t, %c4 : index
  %x = cake.load %buf[%off] : !cake.smem<256xf32> -> vector<4xf32>
  %g = arith.addi %base, %off : index
  cake.store %x, %w[%g] masked : vector<4xf32>, !cake.tensor<[L], f32>
  cake.return
}

// -----

cake.kernel @aligned(%v: !cake.tensor<[L], f32> {cake.name = "v"},
    %tv: !cake.tma<[L], f32, box [256]> {cake.describes = "v"},
    %w: !cake.tensor<[L], f32> {cake.name = "w"})
    attributes {target = "sm_90a", block = array<i64: 64>, symbols = ["L"],
                grid = affine_map<()[l] -> (l ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %buf = cake.alloc_smem : !cake.smem<256xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %start = arith.addi %base, %c0 : index
  scf.if %first {
    cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 1024 : !cake.mbarriers<1>
    cake.tma.load %tv[%start], %buf[], %bar[%c0] : !cake.tma<[L], f32, box [256]>, !cake.smem<256xf32>, !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %off = arith.muli %t, %c4 : index
  %x = cake.load %buf[%off] : !cake.smem<256xf32> -> vector<4xf32>
  %g = arith.addi %base, %off : index
  cake.store %x, %w[%g] masked : vector<4xf32>, !cake.tensor<[L], f32>
  cake.return
}
