// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (tmem.accumulate-unwritten), lib/Verify/VerifyTmem.cpp:128:
//   "pass accumulate false on the first MMA of each tile (for example `kt > 0` for the first k step of a loop)"
// Applied literally: the first MMA takes accumulate %false. Honest.

cake.kernel @accumulate_first() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-note @+1 {{allocated here}}
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %one {
    // expected-error @+2 {{'cake.tcgen05.mma' op [tmem.accumulate-unwritten] accumulates into tensor memory that no earlier MMA wrote: its columns are undefined after cake.tmem.alloc}}
    // expected-note @+1 {{fix: pass accumulate false on the first MMA of each tile (for example `kt > 0` for the first k step of a loop)}}
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
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

// -----

cake.kernel @accumulate_first_fixed() attributes {target = "sm_100a", block = array<i64: 128>,
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
