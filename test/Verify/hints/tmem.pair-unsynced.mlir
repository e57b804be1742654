// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (tmem.pair-unsynced), lib/Verify/VerifyTmem.cpp:
//   "after every block's wait for the operands (cake.mbarrier.wait), add cake.cluster_barrier
//    before the MMA"
// A CTA pair: each block loads its 128 rows of A and of B, waits on its own barrier, and the
// even block issues the pair MMA at once, reading the odd block's tiles, which may not have
// landed. Applied: cake.cluster_barrier after the wait. Honest: the even block issues only once
// both blocks have seen their tiles land; nothing else changes.

cake.kernel @pair_unsynced(
    %ga: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"},
    %gb: !cake.tensor<[N, K], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_100a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M", "N", "K"], grid = affine_map<()[m, n, k] -> (2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>
  %rank = cake.cluster_block_id x
  %m0 = arith.muli %rank, %c128 : index
  scf.if %one {
    cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 32768 : !cake.mbarriers<2>
    // expected-note @+1 {{the operand's last write before the MMA}}
    cake.tma.load %ta[%m0, %c0], %a[], %bars[%c0]
        : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<2>
    // expected-note @+1 {{the operand's last write before the MMA}}
    cake.tma.load %tb[%m0, %c0], %b[], %bars[%c0]
        : !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<2>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<2>
    scf.if %one {
    // One finding per operand (A and B; one expectation matches both):
    // expected-error @+2 {{'cake.tcgen05.mma' op [tmem.pair-unsynced] issues a CTA-pair MMA that reads the other block's copy of this operand with no cluster barrier after its last write: the even block may read it before it lands}}
    // expected-note @+1 {{fix: after every block's wait for the operands (cake.mbarrier.wait), add cake.cluster_barrier before the MMA}}
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x256xf32, pair>
    cake.tcgen05.commit %bars[%c1] pair : !cake.mbarriers<2>
  }
  cake.mbarrier.wait %bars[%c1], %c0 : !cake.mbarriers<2>
  %row = arith.addi %m0, %t : index
  scf.for %j = %c0 to %c256 step %c4 {
    %v = cake.tmem.load %acc[%j] : !cake.tmem<128x256xf32, pair> -> vector<4xf32>
    cake.store %v, %c[%row, %j] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  }
  cake.cluster_barrier
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32, pair>
  cake.return
}

// -----

cake.kernel @pair_unsynced_fixed(
    %ga: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"},
    %gb: !cake.tensor<[N, K], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_100a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M", "N", "K"], grid = affine_map<()[m, n, k] -> (2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>
  %rank = cake.cluster_block_id x
  %m0 = arith.muli %rank, %c128 : index
  scf.if %one {
    cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 32768 : !cake.mbarriers<2>
    cake.tma.load %ta[%m0, %c0], %a[], %bars[%c0]
        : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<2>
    cake.tma.load %tb[%m0, %c0], %b[], %bars[%c0]
        : !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<2>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<2>
  cake.cluster_barrier
  scf.if %one {
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x256xf32, pair>
    cake.tcgen05.commit %bars[%c1] pair : !cake.mbarriers<2>
  }
  cake.mbarrier.wait %bars[%c1], %c0 : !cake.mbarriers<2>
  %row = arith.addi %m0, %t : index
  scf.for %j = %c0 to %c256 step %c4 {
    %v = cake.tmem.load %acc[%j] : !cake.tmem<128x256xf32, pair> -> vector<4xf32>
    cake.store %v, %c[%row, %j] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  }
  cake.cluster_barrier
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32, pair>
  cake.return
}
