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
  // expected-note @+1 {{fix: wait with pending 0 (pending up to 1 keeps the newest groups in flight only where a later wait retires them before their data is read or the kernel ends)}}
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
  // expected-note @+1 {{fix: add cake.tma.store_commit after the last copy of the group, then cake.tma.store_wait 0 before the data is used or the kernel ends}}
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
  // expected-note @+1 {{fix: wait with pending 0}}
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

// -----

// cp.async addresses, evaluated per thread. The op verifier already rejects sizes other than 4, 8
// and 16 bytes and destination rows that are not a whole number of copies.

// The innermost index is off by half a copy: byte offset 8 in every thread, and the last copy of
// each row runs past it.
cake.kernel @dest_misaligned(%a: !cake.tensor<[M, K], bf16>)
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  // expected-note @+2 {{the buffer's rows are 64 bytes apart}}
  // expected-note @+1 {{the buffer is allocated here}}
  %buf = cake.alloc_smem : !cake.smem<32x32xbf16, swizzle = 64>
  %t = cake.thread_id x
  %row = arith.divui %t, %c4 : index
  %q = arith.remui %t, %c4 : index
  %col0 = arith.muli %q, %c8 : index
  %col = arith.addi %col0, %c4 : index
  // expected-error @+4 {{'cake.cp_async' op [async.cp-async-align] expected the shared destination address to be aligned to the copy size (16 bytes), got byte offset 8 in thread 0 (and 127 other threads)}}
  // expected-note @+3 {{fix: make the destination indices land on multiples of 8 elements (16 bytes)}}
  // expected-error @+2 {{'cake.cp_async' op [async.cp-async-row-overrun] expected the copy of 8 elements to stay inside the destination's innermost row of 32 elements, got elements [28, 36) in thread 3 (and 31 other threads)}}
  // expected-note @+1 {{fix: keep the innermost index at most 24 (split the row into 4 copies of 8 elements)}}
  cake.cp_async %a[%row, %col0], %buf[%row, %col], bytes 16 masked
      : !cake.tensor<[M, K], bf16>, !cake.smem<32x32xbf16, swizzle = 64>
  cake.cp_async.commit
  cake.cp_async.wait 0
  cake.return
}

// -----

// A pad of 4 bf16 makes rows 72 bytes apart: every odd row is 8 bytes off.
cake.kernel @dest_padded_rows(%a: !cake.tensor<[M, K], bf16>)
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  // expected-note @+1 {{the buffer's rows are 72 bytes apart (padded)}}
  %buf = cake.alloc_smem : !cake.smem<32x32xbf16, pad = 4>
  %t = cake.thread_id x
  %row = arith.divui %t, %c4 : index
  %q = arith.remui %t, %c4 : index
  %col = arith.muli %q, %c8 : index
  // expected-error @+2 {{[async.cp-async-align] expected the shared destination address to be aligned to the copy size (16 bytes), got byte offset 72 in thread 4 (and 63 other threads)}}
  // expected-note @+1 {{fix: make the destination indices land on multiples of 8 elements (16 bytes), with a pad that keeps every row 16-byte aligned (a multiple of 8 elements)}}
  cake.cp_async %a[%row, %col], %buf[%row, %col], bytes 16 masked
      : !cake.tensor<[M, K], bf16>, !cake.smem<32x32xbf16, pad = 4>
  cake.cp_async.commit
  cake.cp_async.wait 0
  cake.return
}

// -----

// The source: rows of 12 bf16 (24 bytes) misalign every odd row; a coordinate 8 k + 4 is 8 bytes
// off whatever k is (known modulo 16 only).
cake.kernel @source_misaligned(%a: !cake.tensor<[M, 12], bf16>)
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M"],
                grid = affine_map<()[m] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %n = cake.problem_size "M"
  %buf = cake.alloc_smem : !cake.smem<128x8xbf16>
  %t = cake.thread_id x
  %bid = cake.block_id x
  %r0 = arith.muli %bid, %c8 : index
  scf.for %k = %c0 to %n step %c1 {
    %k8 = arith.muli %k, %c8 : index
    %kk = arith.addi %k8, %c4 : index
    // expected-error @+2 {{[async.cp-async-align] expected the global source address to be aligned to the copy size (16 bytes), got byte offset 24 in thread 1 (and 63 other threads)}}
    // expected-note @+1 {{fix: start the copy at an innermost coordinate that is a multiple of 8 elements, in rows whose stride is a multiple of 8 elements}}
    cake.cp_async %a[%t, %c0], %buf[%t, %c0], bytes 16 : !cake.tensor<[M, 12], bf16>, !cake.smem<128x8xbf16>
    // expected-error @+2 {{[async.cp-async-align] expected the global source address to be aligned to the copy size (16 bytes), got byte offset 8 modulo 16 in thread 0 (and 127 other threads)}}
    // expected-note @+1 {{fix: start the copy}}
    cake.cp_async %a[%r0, %kk], %buf[%t, %c0], bytes 16 masked : !cake.tensor<[M, 12], bf16>, !cake.smem<128x8xbf16>
    cake.cp_async.commit
  }
  cake.cp_async.wait 0
  cake.return
}

// -----

// Aligned, but the fourth copy of each row starts at the row's end: past the destination row and,
// unmasked, past the source row of 24.
cake.kernel @row_overrun(%a: !cake.tensor<[M, 24], bf16>)
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M"],
                grid = affine_map<()[m] -> (1)>} {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  // expected-note @+1 {{the buffer is allocated here}}
  %buf = cake.alloc_smem : !cake.smem<32x24xbf16>
  %t = cake.thread_id x
  %row = arith.divui %t, %c4 : index
  %q = arith.remui %t, %c4 : index
  %col = arith.muli %q, %c8 : index
  // expected-error @+4 {{[async.cp-async-row-overrun] expected the copy of 8 elements to stay inside the destination's innermost row of 24 elements, got elements [24, 32) in thread 3 (and 31 other threads)}}
  // expected-note @+3 {{fix: keep the innermost index at most 16 (split the row into 3 copies of 8 elements)}}
  // expected-error @+2 {{[async.cp-async-row-overrun] expected the copy of 8 elements to stay inside the source's innermost row of 24 elements, got elements [24, 32) in thread 3 (and 31 other threads)}}
  // expected-note @+1 {{fix: add 'masked' (it zero-fills past the extent) or keep the innermost coordinate at most 16}}
  cake.cp_async %a[%row, %col], %buf[%row, %col], bytes 16
      : !cake.tensor<[M, 24], bf16>, !cake.smem<32x24xbf16>
  cake.cp_async.commit
  cake.cp_async.wait 0
  cake.return
}

// -----

// Valid: the Ampere GEMM's addressing (swizzled stages, a loop counter times the tile, symbolic
// row strides, which the manifest keeps multiples of 8), a masked copy straddling the source's
// extent, 8-byte copies of f32 pairs, and an index loaded from memory (unknown: not reported).
cake.kernel @addresses_ok(%a: !cake.tensor<[M, K], bf16>, %b: !cake.tensor<[M, 20], f32>,
                          %idx: !cake.tensor<[M], i32>)
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %bm = cake.block_id x
  %m0 = arith.muli %bm, %c32 : index
  %abuf = cake.alloc_smem : !cake.smem<4x32x32xbf16, swizzle = 64>
  %bbuf = cake.alloc_smem : !cake.smem<32x24xf32>
  %t = cake.thread_id x
  %row = arith.divui %t, %c4 : index
  %q = arith.remui %t, %c4 : index
  %col = arith.muli %q, %c8 : index
  %grow = arith.addi %m0, %row : index
  scf.for %kt = %c0 to %ktiles step %c1 {
    %slot = arith.remui %kt, %c4 : index
    %k0 = arith.muli %kt, %c32 : index
    %gk = arith.addi %k0, %col : index
    cake.cp_async %a[%grow, %gk], %abuf[%slot, %row, %col], bytes 16 masked
        : !cake.tensor<[M, K], bf16>, !cake.smem<4x32x32xbf16, swizzle = 64>
    cake.cp_async.commit
  }
  cake.cp_async.wait 0
  // Columns 16..23 of a row of 20 f32: masked, so the copy reads 16..19 and zero-fills the rest.
  %fcol = arith.muli %q, %c2 : index
  %fcol8 = arith.addi %fcol, %c16 : index
  cake.cp_async %b[%row, %fcol8], %bbuf[%row, %fcol8], bytes 8 masked
      : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  %v = cake.load %idx[%row] : !cake.tensor<[M], i32> -> i32
  %vi = arith.index_cast %v : i32 to index
  cake.cp_async %b[%row, %c0], %bbuf[%row, %vi], bytes 16 masked
      : !cake.tensor<[M, 20], f32>, !cake.smem<32x24xf32>
  cake.cp_async.commit
  cake.cp_async.wait 0
  cake.return
}
