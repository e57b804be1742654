// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (tmem.cta-group-mixed), lib/Verify/VerifyTmem.cpp:
//   "make it a pair op: `pair` on the commit, `, pair` in the allocation's type"
// A CTA-pair allocation and MMA, committed by a one-block commit (cta_group::1 cannot track the
// pair's cta_group::2 MMA, and PTX forbids mixing). Applied: `pair` on the commit, which then
// arrives in both blocks. Honest: the MMA and accumulator are unchanged.

cake.kernel @mixed_groups() attributes {target = "sm_100a", block = array<i64: 128>,
    cluster = array<i64: 2>, grid = affine_map<() -> (2)>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  // expected-note @+1 {{the other cta_group, here}}
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>
  scf.if %one {
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x256xf32, pair>
    // expected-error @+2 {{'cake.tcgen05.commit' op [tmem.cta-group-mixed] expected every tensor-memory allocation and commit of the kernel to use one cta_group, got a one-block op among CTA-pair ones}}
    // expected-note @+1 {{fix: make it a pair op: `pair` on the commit, `, pair` in the allocation's type}}
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.cluster_barrier
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32, pair>
  cake.return
}

// -----

cake.kernel @mixed_groups_fixed() attributes {target = "sm_100a", block = array<i64: 128>,
    cluster = array<i64: 2>, grid = affine_map<() -> (2)>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>
  scf.if %one {
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x256xf32, pair>
    cake.tcgen05.commit %bars[%c0] pair : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.cluster_barrier
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32, pair>
  cake.return
}
