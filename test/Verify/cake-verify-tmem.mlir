// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-tmem -o /dev/null

// cake-verify-tmem: the tensor-memory protocol (sm_100a). Each invalid kernel has a valid
// counterpart that differs only in the mistake.

// Valid: one thread issues the MMAs, the first overwrites, a commit and a wait before the read,
// one free after the last use.
cake.kernel @valid() attributes {target = "sm_100a", block = array<i64: 128>,
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

cake.kernel @never_freed() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  // expected-error @+2 {{'cake.tmem.alloc' op [tmem.dealloc-count] expected the allocation to be freed once, got 0 cake.tmem.dealloc}}
  // expected-note @+1 {{fix: free it with cake.tmem.dealloc after its last use}}
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @freed_twice() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  // expected-error @+2 {{[tmem.dealloc-count] expected the allocation to be freed once, got 2 cake.tmem.dealloc}}
  // expected-note @+1 {{fix: keep one cake.tmem.dealloc}}
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-note @+1 {{freed here}}
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  // expected-note @+1 {{freed here}}
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @read_after_free() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-note @+1 {{freed here}}
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  // expected-error @+2 {{[tmem.use-after-dealloc] uses tensor memory after its cake.tmem.dealloc}}
  // expected-note @+1 {{fix: move the cake.tmem.dealloc}}
  %v = cake.tmem.load %acc[%c0] : !cake.tmem<128x128xf32> -> vector<4xf32>
  cake.return
}

// -----

// Every thread issues the MMA.
cake.kernel @mma_by_every_thread() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+2 {{[tmem.mma-threads] expected one thread to issue the MMA, got 128: each issues its own, so the product is added 128 times}}
  // expected-note @+1 {{fix: issue it from one thread}}
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
      : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

// The first MMA accumulates into undefined columns.
cake.kernel @accumulate_first() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  // expected-note @+1 {{allocated here}}
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    // expected-error @+2 {{[tmem.accumulate-unwritten] accumulates into tensor memory that no earlier MMA wrote}}
    // expected-note @+1 {{fix: pass accumulate false on the first MMA of each tile}}
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
  }
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

// Committed, but the readers never wait for the commit's phase.
cake.kernel @read_without_wait() attributes {target = "sm_100a", block = array<i64: 128>,
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
    // expected-note @+1 {{the last MMA into it before the read}}
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  // expected-error @+2 {{[tmem.read-before-commit] reads the accumulator before the MMAs that write it are known to have completed}}
  // expected-note @+1 {{fix: after the last MMA, cake.tcgen05.commit on an mbarrier}}
  %v = cake.tmem.load %acc[%c0] : !cake.tmem<128x128xf32> -> vector<4xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

// Valid: an initial value stored before the first MMA, which then accumulates onto it.
cake.kernel @accumulate_onto_stored() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %bias = arith.constant dense<1.0> : vector<4xf32>
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  cake.tmem.store %bias, %acc[%c0] : vector<4xf32>, !cake.tmem<128x128xf32>
  cake.barrier
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
  }
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}
