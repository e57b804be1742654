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

cake.kernel @hopper_target() attributes {target = "sm_90a", block = array<i64: 128>,
    grid = affine_map<() -> (1)>} {
  // expected-error @+1 {{tensor memory needs sm_100a, got sm_90a}}
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
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
