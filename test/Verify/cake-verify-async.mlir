// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-async -o /dev/null

// cp.async and TMA-store bulk groups: copies committed before a wait, commits waited for, waits
// that leave fewer groups pending than were committed.

cake.kernel @uncommitted(%a: !cake.tensor<[M, K], bf16>)
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16>
  %t = cake.thread_id x
  // expected-error @+2 {{'cake.cp_async' op [async.cp-async-uncommitted] expected a cake.cp_async.commit after this cp.async copy before the wait}}
  // expected-note @+1 {{fix: add cake.cp_async.commit after the last copy of the group, before this wait}}
  cake.cp_async %a[%t, %c0], %buf[%t, %c0], bytes 16 : !cake.tensor<[M, K], bf16>, !cake.smem<64x64xbf16>
  // expected-note @+1 {{the next wait is here}}
  cake.cp_async.wait 0
  cake.barrier
  cake.return
}

// -----

cake.kernel @never_waited(%a: !cake.tensor<[M, K], bf16>)
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16>
  %t = cake.thread_id x
  cake.cp_async %a[%t, %c0], %buf[%t, %c0], bytes 16 : !cake.tensor<[M, K], bf16>, !cake.smem<64x64xbf16>
  // expected-error @+2 {{'cake.cp_async.commit' op [async.cp-async-no-wait] expected a cake.cp_async.wait after this commit}}
  // expected-note @+1 {{fix: add cake.cp_async.wait 0}}
  cake.cp_async.commit
  cake.barrier
  cake.return
}

// -----

// Two groups committed, the wait leaves two pending: it waits for nothing.
cake.kernel @wait_count(%a: !cake.tensor<[M, K], bf16>)
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %buf = cake.alloc_smem : !cake.smem<2x64x64xbf16>
  %t = cake.thread_id x
  scf.for %s = %c0 to %c2 step %c1 {
    cake.cp_async %a[%t, %c0], %buf[%s, %t, %c0], bytes 16 : !cake.tensor<[M, K], bf16>, !cake.smem<2x64x64xbf16>
    // expected-note @+1 {{a group is committed here}}
    cake.cp_async.commit
  }
  // expected-error @+2 {{'cake.cp_async.wait' op [async.cp-async-wait-count] expected pending below the 2 groups committed before the first execution of this wait, got 2}}
  // expected-note @+1 {{fix: wait with pending 1 (or fewer)}}
  cake.cp_async.wait 2
  cake.barrier
  cake.return
}

// -----

// Valid: a prologue of 3 groups, a main loop that waits for the oldest and refills (the Ampere
// multistage ring), a drain at the end.
cake.kernel @ring(%a: !cake.tensor<[M, K], bf16>)
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %n = cake.problem_size "K"
  %buf = cake.alloc_smem : !cake.smem<4x64x64xbf16>
  %t = cake.thread_id x
  scf.for %s = %c0 to %c3 step %c1 {
    cake.cp_async %a[%t, %c0], %buf[%s, %t, %c0], bytes 16 : !cake.tensor<[M, K], bf16>, !cake.smem<4x64x64xbf16>
    cake.cp_async.commit
  }
  scf.for %i = %c0 to %n step %c1 {
    cake.cp_async.wait 2
    cake.barrier
    cake.cp_async %a[%t, %c0], %buf[%c0, %t, %c0], bytes 16 : !cake.tensor<[M, K], bf16>, !cake.smem<4x64x64xbf16>
    cake.cp_async.commit
  }
  cake.cp_async.wait 0
  cake.barrier
  cake.return
}

// -----

cake.kernel @tma_store_uncommitted(%c: !cake.tensor<[M, N], bf16> {cake.name = "c"},
                      %tc: !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128> {cake.describes = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  // expected-error @+2 {{'cake.tma.store' op [async.tma-store-uncommitted] expected a cake.tma.store_commit after this TMA store before the kernel ends}}
  // expected-note @+1 {{fix: add cake.tma.store_commit after the last copy of the group}}
  cake.tma.store %buf[], %tc[%c0, %c0] : !cake.smem<64x64xbf16, swizzle = 128>, !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128>
  cake.return
}

// -----

cake.kernel @tma_store_no_wait(%c: !cake.tensor<[M, N], bf16> {cake.name = "c"},
                      %tc: !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128> {cake.describes = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  cake.tma.store %buf[], %tc[%c0, %c0] : !cake.smem<64x64xbf16, swizzle = 128>, !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128>
  // expected-error @+2 {{'cake.tma.store_commit' op [async.tma-store-no-wait] expected a cake.tma.store_wait after this commit}}
  // expected-note @+1 {{fix: add cake.tma.store_wait 0}}
  cake.tma.store_commit
  cake.return
}

// -----

cake.kernel @tma_store_wait_count(%c: !cake.tensor<[M, N], bf16> {cake.name = "c"},
                      %tc: !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128> {cake.describes = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  cake.tma.store %buf[], %tc[%c0, %c0] : !cake.smem<64x64xbf16, swizzle = 128>, !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128>
  // expected-note @+1 {{a group is committed here}}
  cake.tma.store_commit
  // expected-error @+2 {{'cake.tma.store_wait' op [async.tma-store-wait-count] expected pending below the 1 groups committed before the first execution of this wait, got 1}}
  // expected-note @+1 {{fix: wait with pending 0 (or fewer)}}
  cake.tma.store_wait 1
  cake.return
}

// -----

// Valid: store, commit, wait 0 before the kernel ends.
cake.kernel @tma_store_ok(%c: !cake.tensor<[M, N], bf16> {cake.name = "c"},
                      %tc: !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128> {cake.describes = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (1)>} {
  %c0 = arith.constant 0 : index
  %buf = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  cake.tma.store %buf[], %tc[%c0, %c0] : !cake.smem<64x64xbf16, swizzle = 128>, !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128>
  cake.tma.store_commit
  cake.tma.store_wait 0
  cake.return
}
