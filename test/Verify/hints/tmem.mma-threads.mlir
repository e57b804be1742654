// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (tmem.mma-threads), lib/Verify/VerifyTmem.cpp:112:
//   "issue it from one thread: under scf.if on cake.elect_one in one warp, or on a thread id test"
// The first MMA is issued by all 128 threads; applied: it moves under the scf.if on thread 0 that
// already issues the second MMA and the commit. Honest.

cake.kernel @mma_by_every_thread() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  // expected-error @+2 {{'cake.tcgen05.mma' op [tmem.mma-threads] expected one thread to issue the MMA, got 128: each issues its own, so the product is added 128 times}}
  // expected-note @+1 {{fix: issue it from one thread: under scf.if on cake.elect_one in one warp, or on a thread id test}}
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
      : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
  scf.if %one {
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  %v = cake.tmem.load %acc[%c0] : !cake.tmem<128x128xf32> -> vector<4xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @mma_by_every_thread_fixed() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %one {
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  %v = cake.tmem.load %acc[%c0] : !cake.tmem<128x128xf32> -> vector<4xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}
