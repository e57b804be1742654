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
  // expected-note @-2 {{the last asynchronous write before the free}}
  // expected-error @+2 {{[tmem.dealloc-in-flight] frees tensor memory that MMAs or copies may still be writing: no commit after the last of them is waited on before the free}}
  // expected-note @+1 {{fix: after the last MMA or copy, cake.tcgen05.commit on an mbarrier (the issuing thread) and cake.mbarrier.wait on that phase before cake.tmem.dealloc}}
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
  // expected-note @-3 {{the last asynchronous write before the free}}
  // expected-error @+2 {{[tmem.dealloc-in-flight] frees tensor memory that MMAs or copies may still be writing: no commit after the last of them is waited on before the free}}
  // expected-note @+1 {{fix: after the last MMA or copy, cake.tcgen05.commit on an mbarrier (the issuing thread) and cake.mbarrier.wait on that phase before cake.tmem.dealloc}}
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
    // expected-note @+1 {{the last MMA or copy into it before the read}}
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  // expected-error @+2 {{[tmem.read-before-commit] reads the accumulator before the MMAs that write it are known to have completed}}
  // expected-note @+1 {{fix: after the last MMA, cake.tcgen05.commit on an mbarrier}}
  %v = cake.tmem.load %acc[%c0] : !cake.tmem<128x128xf32> -> vector<4xf32>
  // expected-note @-7 {{the last asynchronous write before the free}}
  // expected-error @+2 {{[tmem.dealloc-in-flight] frees tensor memory that MMAs or copies may still be writing: no commit after the last of them is waited on before the free}}
  // expected-note @+1 {{fix: after the last MMA or copy, cake.tcgen05.commit on an mbarrier (the issuing thread) and cake.mbarrier.wait on that phase before cake.tmem.dealloc}}
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

// Valid: an initial value stored before the first MMA, which then accumulates onto it; the free
// waits for the MMA's commit.
cake.kernel @accumulate_onto_stored() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %bias = arith.constant dense<1.0> : vector<4xf32>
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  cake.tmem.store %bias, %acc[%c0] : vector<4xf32>, !cake.tmem<128x128xf32>
  cake.barrier
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

// The free's block barrier does not wait for the MMA: committed, but nobody waits.
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
    // expected-note @+1 {{the last asynchronous write before the free}}
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  // expected-error @+2 {{[tmem.dealloc-in-flight] frees tensor memory that MMAs or copies may still be writing}}
  // expected-note @+1 {{fix: after the last MMA or copy}}
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

// A copy is an asynchronous writer too: read without a commit after it.
cake.kernel @read_after_copy() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %src = cake.alloc_smem : !cake.smem<128x8xf32, swizzle = 32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    // expected-note @+1 {{the last MMA or copy into it before the read}}
    cake.tcgen05.cp %src[%c0, %c0], %acc[%c0] : !cake.smem<128x8xf32, swizzle = 32>, !cake.tmem<128x128xf32>
  }
  // expected-error @+2 {{[tmem.read-before-commit] reads the accumulator before the MMAs that write it are known to have completed}}
  // expected-note @+1 {{fix: after the last MMA}}
  %v = cake.tmem.load %acc[%c0] : !cake.tmem<128x128xf32> -> vector<8xf32>
  // expected-note @-5 {{the last asynchronous write before the free}}
  // expected-error @+2 {{[tmem.dealloc-in-flight] frees tensor memory that MMAs or copies may still be writing: no commit after the last of them is waited on before the free}}
  // expected-note @+1 {{fix: after the last MMA or copy, cake.tcgen05.commit on an mbarrier (the issuing thread) and cake.mbarrier.wait on that phase before cake.tmem.dealloc}}
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

// Every thread issues the copy.
cake.kernel @copy_by_every_thread() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %src = cake.alloc_smem : !cake.smem<128x8xf32, swizzle = 32>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+2 {{[tmem.mma-threads] expected one thread to issue the copy, got 128: each issues its own copy of the tile}}
  // expected-note @+1 {{fix: issue it from one thread}}
  cake.tcgen05.cp %src[%c0, %c0], %acc[%c0] : !cake.smem<128x8xf32, swizzle = 32>, !cake.tmem<128x128xf32>
  // expected-note @-1 {{the last asynchronous write before the free}}
  // expected-error @+2 {{[tmem.dealloc-in-flight] frees tensor memory that MMAs or copies may still be writing: no commit after the last of them is waited on before the free}}
  // expected-note @+1 {{fix: after the last MMA or copy, cake.tcgen05.commit on an mbarrier (the issuing thread) and cake.mbarrier.wait on that phase before cake.tmem.dealloc}}
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

// Valid: a bias copied in, the MMA accumulates onto it (same thread: the copy is ordered before
// the MMA), one commit and wait before the read and the free.
cake.kernel @accumulate_onto_copy() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %src = cake.alloc_smem : !cake.smem<128x8xf32, swizzle = 32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.tcgen05.cp %src[%c0, %c0], %acc[%c0] : !cake.smem<128x8xf32, swizzle = 32>, !cake.tmem<128x128xf32>
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  %v = cake.tmem.load %acc[%c0] : !cake.tmem<128x128xf32> -> vector<8xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

// A pair allocation with a one-block commit: two cta_groups in one kernel.
cake.kernel @mixed_groups() attributes {target = "sm_100a", block = array<i64: 128>,
    cluster = array<i64: 2>, grid = affine_map<() -> (2)>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-note @+1 {{the other cta_group, here}}
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x256xf32, pair>
    // expected-error @+2 {{[tmem.cta-group-mixed] expected every tensor-memory allocation and commit of the kernel to use one cta_group, got a one-block op among CTA-pair ones}}
    // expected-note @+1 {{fix: make it a pair op}}
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32, pair>
  cake.return
}

// -----

// The even block reads the odd block's operands right after its own wait: no cluster barrier.
cake.kernel @pair_unsynced(
    %ga: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"},
    %gb: !cake.tensor<[N, K], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"})
    attributes {target = "sm_100a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M", "N", "K"], grid = affine_map<()[m, n, k] -> (2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    // expected-note @+1 {{the operand's last write before the MMA}}
    cake.tma.load %ta[%c0, %c0], %a[], %bars[%c0]
        : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<2>
    // expected-note @+1 {{the operand's last write before the MMA}}
    cake.tma.load %tb[%c0, %c0], %b[], %bars[%c0]
        : !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<2>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<2>
  scf.if %one {
    // One finding per operand (A and B), each with its note and fix:
    // expected-error @+2 {{[tmem.pair-unsynced] issues a CTA-pair MMA that reads the other block's copy of this operand with no cluster barrier after its last write}}
    // expected-note @+1 {{fix: after every block's wait for the operands (cake.mbarrier.wait), add cake.cluster_barrier before the MMA}}
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x256xf32, pair>
    cake.tcgen05.commit %bars[%c1] pair : !cake.mbarriers<2>
  }
  cake.mbarrier.wait %bars[%c1], %c0 : !cake.mbarriers<2>
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32, pair>
  cake.return
}

// -----

// The only wait on the MMA's commit is in a branch every thread may skip alike (a data-dependent
// condition): on that path the free runs while the MMA may still write.
cake.kernel @wait_in_skipped_branch(%alpha: f32 {cake.name = "alpha"}) attributes {
    target = "sm_100a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %zero = arith.constant 0.0 : f32
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    // expected-note @+1 {{the last asynchronous write before the free}}
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  %scaled = arith.cmpf one, %alpha, %zero : f32
  scf.if %scaled {
    cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
    %v = cake.tmem.load %acc[%c0] : !cake.tmem<128x128xf32> -> vector<4xf32>
  }
  // expected-error @+2 {{[tmem.dealloc-in-flight] frees tensor memory that MMAs or copies may still be writing}}
  // expected-note @+1 {{fix: after the last MMA or copy}}
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

// Valid: both branches wait.
cake.kernel @wait_in_both_branches(%alpha: f32 {cake.name = "alpha"}) attributes {
    target = "sm_100a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %zero = arith.constant 0.0 : f32
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  scf.if %one {
    cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
        : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  %scaled = arith.cmpf one, %alpha, %zero : f32
  scf.if %scaled {
    cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
    %v = cake.tmem.load %acc[%c0] : !cake.tmem<128x128xf32> -> vector<4xf32>
  } else {
    cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  }
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

// The accumulate flag is a loop-carried value that starts true: the first MMA adds onto
// undefined columns.
cake.kernel @accumulate_flag_starts_true() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-note @+1 {{allocated here}}
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  %last = scf.for %kt = %c0 to %c4 step %c1 iter_args(%more = %true) -> (i1) {
    scf.if %one {
      // expected-error @+2 {{[tmem.accumulate-unwritten] accumulates into tensor memory that no earlier MMA wrote}}
      // expected-note @+1 {{fix: pass accumulate false on the first MMA of each tile}}
      cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %more
          : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
    }
    scf.yield %true : i1
  }
  scf.if %one {
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

// Valid: the flag starts false (kt > 0 would do the same).
cake.kernel @accumulate_flag_starts_false() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  %t = cake.thread_id x
  %one = arith.cmpi eq, %t, %c0 : index
  %last = scf.for %kt = %c0 to %c4 step %c1 iter_args(%more = %false) -> (i1) {
    scf.if %one {
      cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %more
          : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
    }
    scf.yield %true : i1
  }
  scf.if %one {
    cake.tcgen05.commit %bars[%c0] : !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}
