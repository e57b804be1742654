// RUN: cake-opt %s -split-input-file -verify-diagnostics

// The diagnostics of the tcgen05 / tensor-memory ops and type (sm_100a).

cake.kernel @columns_not_power_of_two() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{expected a power of two from 32 to 512 columns, got 96}}
  %acc = cake.tmem.alloc : !cake.tmem<128x96xf32>
  cake.return
}

// -----

cake.kernel @rows() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{expected 128 rows (the lanes of tensor memory), got 64}}
  %acc = cake.tmem.alloc : !cake.tmem<64x128xf32>
  cake.return
}

// -----

cake.kernel @element() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{expected f32 accumulator elements, got 'f16'}}
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf16>
  cake.return
}

// -----

cake.kernel @shape() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{expected rows x columns x element type, got 3 dimensions}}
  %acc = cake.tmem.alloc : !cake.tmem<2x128x128xf32>
  cake.return
}

// -----

cake.kernel @too_many_columns() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %a = cake.tmem.alloc : !cake.tmem<128x512xf32>
  // expected-error @+1 {{the kernel's allocations take 544 columns of tensor memory, more than the 512 an SM has}}
  %b = cake.tmem.alloc : !cake.tmem<128x32xf32>
  cake.return
}

// -----

cake.kernel @not_top_level() attributes {target = "sm_100a", block = array<i64: 128>,
    symbols = ["N"], grid = affine_map<()[n] -> (1)>} {
  %n = cake.problem_size "N"
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{is block-collective: expected it at the top level of the kernel body, not inside scf.for}}
    %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  }
  cake.return
}

// -----

cake.kernel @dealloc_not_top_level() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %t = cake.thread_id x
  %p = arith.cmpi eq, %t, %c0 : index
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  scf.if %p {
    // expected-error @+1 {{is block-collective: expected it at the top level of the kernel body, not inside scf.if}}
    cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  }
  cake.return
}

// -----

cake.kernel @mma_n_too_wide() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<512x64xbf16, swizzle = 128>
  %acc = cake.tmem.alloc : !cake.tmem<128x512xf32>
  // expected-error @+1 {{expected an accumulator of at most 256 columns (the MMA's N), got 512}}
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
      : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<512x64xbf16, swizzle = 128>, !cake.tmem<128x512xf32>
  cake.return
}

// -----

cake.kernel @mma_a_rows() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %a = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+1 {{expected A to hold at least 128 rows (the MMA's M)}}
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
      : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @mma_b_rows() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+1 {{expected B to hold at least N = 128 rows}}
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
      : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @mma_unswizzled() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %a = cake.alloc_smem : !cake.smem<128x64xbf16>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+1 {{expected A's rows to be one swizzle span (32, 64 or 128 bytes), got 128-byte rows with swizzle 0}}
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
      : !cake.smem<128x64xbf16>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @mma_types() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xf16, swizzle = 128>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+1 {{expected A and B of one element type, got 'bf16' and 'f16'}}
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %true
      : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xf16, swizzle = 128>, !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @load_width() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+1 {{expected a power of two of at most 128 columns, got 24}}
  %v = cake.tmem.load %acc[%c0] : !cake.tmem<128x128xf32> -> vector<24xf32>
  cake.return
}

// -----

cake.kernel @load_wider_than_allocation() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = cake.tmem.alloc : !cake.tmem<128x32xf32>
  // expected-error @+1 {{expected at most the allocation's 32 columns, got 64}}
  %v = cake.tmem.load %acc[%c0] : !cake.tmem<128x32xf32> -> vector<64xf32>
  cake.return
}

// -----

cake.kernel @store_width() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %v = arith.constant dense<0.0> : vector<3xf32>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+1 {{expected a power of two of at most 128 columns, got 3}}
  cake.tmem.store %v, %acc[%c0] : vector<3xf32>, !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @pair_keyword() attributes {target = "sm_100a", block = array<i64: 128>,
    cluster = array<i64: 2>, grid = affine_map<() -> (2)>} {
  // expected-error @+1 {{expected 'pair'}}
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, twin>
  cake.return
}

// -----

cake.kernel @pair_without_cluster() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (2)>} {
  // expected-error @+1 {{expected a kernel whose cluster has an even x extent for a pair allocation (CTA pairs are cluster ranks 2i and 2i + 1), got 1}}
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>
  cake.return
}

// -----

cake.kernel @pair_commit_odd_cluster() attributes {target = "sm_100a", block = array<i64: 128>,
    cluster = array<i64: 3>, grid = affine_map<() -> (3)>} {
  %c0 = arith.constant 0 : index
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{expected a kernel whose cluster has an even x extent for a pair commit, got 3}}
  cake.tcgen05.commit %bars[%c0] pair : !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @pair_b_rows() attributes {target = "sm_100a", block = array<i64: 128>,
    cluster = array<i64: 2>, grid = affine_map<() -> (2)>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>
  // expected-error @+1 {{expected B to hold at least N/2 = 128 rows}}
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
      : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.tmem<128x256xf32, pair>
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32, pair>
  cake.return
}

// -----

cake.kernel @fp8_with_bf16() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %false = arith.constant false
  %a = cake.alloc_smem : !cake.smem<128x128xf8E4M3FN, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+1 {{expected A and B of one element type, got 'f8E4M3FN' and 'bf16'}}
  cake.tcgen05.mma %a[%c0, %c0], %b[%c0, %c0], %acc, accumulate %false
      : !cake.smem<128x128xf8E4M3FN, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>, !cake.tmem<128x128xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

// wgmma takes no fp8 (its kind is not lowered): the message lists what it takes.
cake.kernel @fp8_wgmma() attributes {target = "sm_90a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : vector<64xf32>
  %a = cake.alloc_smem : !cake.smem<64x128xf8E4M3FN, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<128x128xf8E4M3FN, swizzle = 128>
  // expected-error @+1 {{expected A of f16, bf16 or f32 (tf32), got 'f8E4M3FN'}}
  %r = cake.wgmma %a[%c0, %c0], %b[%c0, %c0], %acc
      : !cake.smem<64x128xf8E4M3FN, swizzle = 128>, !cake.smem<128x128xf8E4M3FN, swizzle = 128>, vector<64xf32>
  cake.return
}

// -----

cake.kernel @copy_element() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %src = cake.alloc_smem : !cake.smem<128x16xbf16, swizzle = 32>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+1 {{expected an f32 source (32-bit columns), got 'bf16'}}
  cake.tcgen05.cp %src[%c0, %c0], %acc[%c0] : !cake.smem<128x16xbf16, swizzle = 32>, !cake.tmem<128x128xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @copy_unswizzled() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %src = cake.alloc_smem : !cake.smem<128x8xf32>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+1 {{expected the source's rows to be one swizzle span (32, 64 or 128 bytes), got 32-byte rows with swizzle 0}}
  cake.tcgen05.cp %src[%c0, %c0], %acc[%c0] : !cake.smem<128x8xf32>, !cake.tmem<128x128xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @copy_rows() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %src = cake.alloc_smem : !cake.smem<64x8xf32, swizzle = 32>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+1 {{expected the source to hold at least 128 rows (one per lane)}}
  cake.tcgen05.cp %src[%c0, %c0], %acc[%c0] : !cake.smem<64x8xf32, swizzle = 32>, !cake.tmem<128x128xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @copy_columns() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %c124 = arith.constant 124 : index
  %src = cake.alloc_smem : !cake.smem<128x8xf32, swizzle = 32>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  // expected-error @+1 {{expected columns 124 to 131 inside the allocation's 128}}
  cake.tcgen05.cp %src[%c0, %c0], %acc[%c124] : !cake.smem<128x8xf32, swizzle = 32>, !cake.tmem<128x128xf32>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}

// -----

cake.kernel @copy_into_pair() attributes {target = "sm_100a", block = array<i64: 128>,
    cluster = array<i64: 2>, grid = affine_map<() -> (2)>} {
  %c0 = arith.constant 0 : index
  %src = cake.alloc_smem : !cake.smem<128x8xf32, swizzle = 32>
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32, pair>
  // expected-error @+1 {{expected a one-block allocation: copies into a pair allocation (cta_group::2) are not supported}}
  cake.tcgen05.cp %src[%c0, %c0], %acc[%c0] : !cake.smem<128x8xf32, swizzle = 32>, !cake.tmem<128x128xf32, pair>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32, pair>
  cake.return
}

// -----

cake.kernel @answer_type() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %resp = cake.alloc_smem : !cake.smem<8xi32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{expected an answer buffer whose innermost dimension is 4 x i32 (16 bytes, no swizzle), got '!cake.smem<8xi32>'}}
  cake.clc.try_cancel %resp[], %bars[%c0] : !cake.smem<8xi32>, !cake.mbarriers<1>
  cake.return
}

// -----

cake.kernel @answer_indices() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %resp = cake.alloc_smem : !cake.smem<2x4xi32>
  // expected-error @+1 {{expected 1 indices (the answer's leading dimensions), got 2}}
  %taken, %x, %y, %z = cake.clc.query %resp[%c0, %c0] : !cake.smem<2x4xi32>
  cake.return
}

// -----

cake.kernel @multicast_without_cluster() attributes {target = "sm_100a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %resp = cake.alloc_smem : !cake.smem<4xi32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  // expected-error @+1 {{expected a kernel with a cluster for a multicast answer}}
  cake.clc.try_cancel multicast %resp[], %bars[%c0] : !cake.smem<4xi32>, !cake.mbarriers<1>
  cake.return
}
