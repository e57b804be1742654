// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-tma -o /dev/null

// TMA copies against the kernel: multicast masks within the cluster, coordinates that a loop
// advances by at least the box.

// A mask naming rank 2 in a cluster of 2 blocks.
cake.kernel @mask_beyond_cluster(%x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, 32], f32, box [16, 32]> {cake.describes = "x"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M"], grid = affine_map<()[m] -> (2)>} {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the mask is defined here}}
  %c5 = arith.constant 5 : index
  %buf = cake.alloc_smem : !cake.smem<16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+2 {{'cake.tma.load' op [tma.multicast-mask] expected a multicast mask of the cluster's 2 block ranks (a nonzero subset of 0x3), got 0x5}}
  // expected-note @+1 {{fix: set the mask to a nonzero subset of 0x3 (bit r = block rank r of the cluster), or enlarge the cluster}}
  cake.tma.load %tx[%c0, %c0], %buf[], %bar[%c0] multicast %c5
      : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<1>
  cake.return
}

// -----

// An empty mask copies nowhere (and nothing completes on the barriers).
cake.kernel @mask_zero(%x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, 32], f32, box [16, 32]> {cake.describes = "x"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2, 2>,
                symbols = ["M"], grid = affine_map<()[m] -> (4)>} {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the mask is defined here}}
  %m = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+2 {{[tma.multicast-mask] expected a multicast mask of the cluster's 4 block ranks (a nonzero subset of 0xF), got 0x0}}
  // expected-note @+1 {{fix: set the mask to a nonzero subset of 0xF}}
  cake.tma.load %tx[%c0, %c0], %buf[], %bar[%c0] multicast %m
      : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<1>
  cake.return
}

// -----

// Valid: every rank of a cluster of 4 (2 x 2), and a mask that is not a constant.
cake.kernel @mask_ok(%x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, 32], f32, box [16, 32]> {cake.describes = "x"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2, 2>,
                symbols = ["M"], grid = affine_map<()[m] -> (4)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %buf = cake.alloc_smem : !cake.smem<16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  cake.tma.load %tx[%c0, %c0], %buf[], %bar[%c0] multicast %c15
      : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<1>
  %rank = cake.cluster_block_id x
  %m = arith.addi %rank, %c1 : index
  cake.tma.load %tx[%c0, %c0], %buf[], %bar[%c0] multicast %m
      : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<1>
  cake.return
}

// -----

// A k loop whose tile (32) is half the box (64): each copy overlaps the previous one.
cake.kernel @stride_below_box(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %m0 = cake.block_id x
  %buf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-note @+1 {{the loop is here}}
  scf.for %kt = %c0 to %kdim step %c1 {
    %k0 = arith.muli %kt, %c32 : index
    // expected-warning @+2 {{'cake.tma.load' op [tma.coord-stride] coordinate 1 advances by 32 per iteration, less than the box's 64: consecutive iterations copy overlapping tiles}}
    // expected-note @+1 {{fix: advance the coordinate by the box extent 64 per iteration (tile size = box), or shrink the box to the tile}}
    cake.tma.load %ta[%m0, %k0], %buf[], %bar[%c0]
        : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>,
          !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<1>
  }
  cake.return
}

// -----

// The same through the loop step, for a TMA store.
cake.kernel @store_step_below_box(%c: !cake.tensor<[M, N], f32> {cake.name = "c"},
    %tc: !cake.tma<[M, N], f32, box [64, 32]> {cake.describes = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %mdim = cake.problem_size "M"
  %buf = cake.alloc_smem : !cake.smem<64x32xf32>
  // expected-note @+1 {{the loop is here}}
  scf.for %m = %c0 to %mdim step %c16 {
    %m1 = arith.addi %m, %c16 : index
    // expected-warning @+2 {{[tma.coord-stride] coordinate 0 advances by 16 per iteration, less than the box's 64}}
    // expected-note @+1 {{fix: advance the coordinate by the box extent 64}}
    cake.tma.store %buf[], %tc[%m1, %c0] : !cake.smem<64x32xf32>, !cake.tma<[M, N], f32, box [64, 32]>
  }
  cake.tma.store_commit
  cake.tma.store_wait 0
  cake.return
}

// -----

// Valid: a k loop advancing by the box (64), a row coordinate invariant in the loop, and a
// coordinate advancing by more than the box (a split-k stride).
cake.kernel @stride_ok(%a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %kdim = cake.problem_size "K"
  %bm = cake.block_id x
  %m0 = arith.muli %bm, %c128 : index
  %buf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  scf.for %kt = %c0 to %kdim step %c1 {
    %k0 = arith.muli %kt, %c64 : index
    cake.tma.load %ta[%m0, %k0], %buf[], %bar[%c0]
        : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>,
          !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<1>
    %k1 = arith.muli %c128, %kt : index
    cake.tma.load %ta[%m0, %k1], %buf[], %bar[%c0]
        : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>,
          !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<1>
  }
  cake.return
}
