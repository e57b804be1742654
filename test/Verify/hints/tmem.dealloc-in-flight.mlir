// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (tmem.dealloc-in-flight), lib/Verify/VerifyTmem.cpp:
//   "after the last MMA or copy, cake.tcgen05.commit on an mbarrier (the issuing thread) and
//    cake.mbarrier.wait on that phase before cake.tmem.dealloc"
// The MMA is committed but nobody waits before the free; applied: cake.mbarrier.wait %bars[%c0],
// %c0 (the barrier's first phase) before the free. Honest: the free now follows the MMA's
// completion, and nothing else changes.

cake.kernel @free_in_flight() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
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
    // expected-note @+1 {{the last asynchronous write before the free}}
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  // expected-error @+2 {{'cake.tmem.dealloc' op [tmem.dealloc-in-flight] frees tensor memory that MMAs or copies may still be writing: no commit after the last of them is waited on before the free}}
  // expected-note @+1 {{fix: after the last MMA or copy, cake.tcgen05.commit on an mbarrier (the issuing thread) and cake.mbarrier.wait on that phase before cake.tmem.dealloc}}
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @free_in_flight_fixed() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
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
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}
