// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (tmem.dealloc-count), lib/Verify/VerifyTmem.cpp:84 (two texts):
//   none:  "free it with cake.tmem.dealloc after its last use, before cake.return (columns left
//           allocated block the next block scheduled on the SM)"
//   twice: "keep one cake.tmem.dealloc, after the allocation's last use"
// Kernel 1 never frees; fixed with a cake.tmem.dealloc after the cake.tmem.load. Kernel 3 frees
// twice; fixed by deleting the second. Both honest.

cake.kernel @never_freed() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+2 {{'cake.tmem.alloc' op [tmem.dealloc-count] expected the allocation to be freed once, got 0 cake.tmem.dealloc}}
  // expected-note @+1 {{fix: free it with cake.tmem.dealloc after its last use, before cake.return (columns left allocated block the next block scheduled on the SM)}}
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
  cake.return
}

// -----

cake.kernel @never_freed_fixed() attributes {target = "sm_100a", block = array<i64: 128>,
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

// -----

cake.kernel @freed_twice() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+2 {{'cake.tmem.alloc' op [tmem.dealloc-count] expected the allocation to be freed once, got 2 cake.tmem.dealloc}}
  // expected-note @+1 {{fix: keep one cake.tmem.dealloc, after the allocation's last use}}
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
  // expected-note @+1 {{freed here}}
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  // expected-note @+1 {{freed here}}
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @freed_twice_fixed() attributes {target = "sm_100a", block = array<i64: 128>,
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
