// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify-smem -o /dev/null

// cake-verify-smem: every shared allocation at its alignment, plus dynamic_smem, against the
// target's limit (227 KiB = 232448 bytes on Hopper, 163 KiB = 166912 on sm_80).

// Valid: 227 KiB exactly on sm_90a.
cake.kernel @fits() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>} {
  %a = cake.alloc_smem : !cake.smem<4x128x64xbf16, swizzle = 128>
  %b = cake.alloc_smem : !cake.smem<4x192x64xbf16, swizzle = 128>
  %c = cake.alloc_smem : !cake.smem<17152xf32>
  cake.return
}

// -----

// Over by 8 bytes: one mbarrier on top of 227 KiB of buffers.
// expected-error @+2 {{[smem.over-limit] expected at most 232448 bytes of shared memory on sm_90a, got 232456 (0 bytes of alignment padding, 0 bytes of dynamic_smem)}}
// expected-note @+1 {{fix: free at least 8 bytes: use smaller tiles (the biggest buffer takes 98304 bytes) or fewer buffers}}
cake.kernel @over_by_barriers() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>} {
  // expected-note @+1 {{65536 bytes at offset 0 (!cake.smem<4x128x64xbf16, swizzle = 128>)}}
  %a = cake.alloc_smem : !cake.smem<4x128x64xbf16, swizzle = 128>
  // expected-note @+1 {{98304 bytes at offset 65536 (!cake.smem<4x192x64xbf16, swizzle = 128>)}}
  %b = cake.alloc_smem : !cake.smem<4x192x64xbf16, swizzle = 128>
  // expected-note @+1 {{68608 bytes at offset 163840 (!cake.smem<17152xf32>)}}
  %c = cake.alloc_smem : !cake.smem<17152xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  cake.return
}

// -----

// The same buffers on sm_80 (163 KiB), with alignment padding before the swizzled buffer.
// expected-error @+2 {{[smem.over-limit] expected at most 166912 bytes of shared memory on sm_80, got 180224 (4 bytes of alignment padding, 0 bytes of dynamic_smem)}}
// expected-note @+1 {{fix: free at least 13312 bytes: use smaller tiles (the biggest buffer takes 98304 bytes) or fewer buffers}}
cake.kernel @ampere() attributes {target = "sm_80", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>} {
  // expected-note @+1 {{16380 bytes at offset 0 (!cake.smem<4095xf32>)}}
  %c = cake.alloc_smem : !cake.smem<4095xf32>
  // expected-note @+1 {{65536 bytes at offset 16384 (!cake.smem<4x128x64xbf16, swizzle = 128>)}}
  %a = cake.alloc_smem : !cake.smem<4x128x64xbf16, swizzle = 128>
  // expected-note @+1 {{98304 bytes at offset 81920 (!cake.smem<4x192x64xbf16, swizzle = 128>)}}
  %b = cake.alloc_smem : !cake.smem<4x192x64xbf16, swizzle = 128>
  cake.return
}

// -----

// Dynamic shared memory counts too.
// expected-error @+2 {{[smem.over-limit] expected at most 232448 bytes of shared memory on sm_90a, got 265536 (0 bytes of alignment padding, 200000 bytes of dynamic_smem)}}
// expected-note @+1 {{fix: free at least 33088 bytes: use smaller tiles (the biggest buffer takes 65536 bytes) or fewer buffers}}
cake.kernel @dynamic() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>, dynamic_smem = 200000} {
  // expected-note @+1 {{65536 bytes at offset 0 (!cake.smem<4x128x64xbf16, swizzle = 128>)}}
  %a = cake.alloc_smem : !cake.smem<4x128x64xbf16, swizzle = 128>
  cake.return
}

// -----

// Bounds: every index of a shared-memory access, over the values it takes in each thread, inside
// its dimension. Valid: a strided loop (r + half never passes 127), a clamp, and an access guarded
// by a condition on the loop counter (not judged).
cake.kernel @in_bounds() attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["K"],
                                     grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %tile = cake.alloc_smem : !cake.smem<128x128xf32>
  %tid = cake.thread_id x
  %half = arith.divui %tid, %c128 : index
  %col = arith.remui %tid, %c128 : index
  scf.for %r = %c0 to %c128 step %c2 {
    %row = arith.addi %r, %half : index
    cake.store %zero, %tile[%row, %col] : f32, !cake.smem<128x128xf32>
  }
  %next = arith.addi %col, %c1 : index
  %clamped = arith.minui %next, %c127 : index
  %v = cake.load %tile[%c0, %clamped] : !cake.smem<128x128xf32> -> f32
  %k = cake.problem_size "K"
  scf.for %i = %c0 to %k step %c1 {
    %inside = arith.cmpi ult, %i, %c128 : index
    scf.if %inside {
      %w = cake.load %tile[%i, %col] : !cake.smem<128x128xf32> -> f32
    }
  }
  cake.return
}

// -----

// A static index one past the end, a ring indexed mod 4 over 3 stages, a neighbour without a
// halo, and a vector access whose last element passes the row.
cake.kernel @out_of_bounds() attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["K"],
                                         grid = affine_map<()[k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c66 = arith.constant 66 : index
  %zero = arith.constant 0.0 : f32
  // expected-note @+1 {{the buffer '!cake.smem<64xf32>' is allocated here}}
  %row = cake.alloc_smem : !cake.smem<64xf32>
  // expected-note @+1 {{the buffer '!cake.smem<3x128xf32>' is allocated here}}
  %ring = cake.alloc_smem : !cake.smem<3x128xf32>
  // expected-note @+1 {{the buffer '!cake.smem<128xf32>' is allocated here}}
  %line = cake.alloc_smem : !cake.smem<128xf32>
  // expected-note @+1 {{the buffer '!cake.smem<128xf32>' is allocated here}}
  %wide = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  // expected-error @+2 {{[smem.out-of-bounds] expected index 0 in [0, 64), but in thread 0 it reaches 64}}
  // expected-note @+1 {{fix: give dimension 0 of the buffer 65 elements, or bound the index below 64}}
  %last = cake.load %row[%c64] : !cake.smem<64xf32> -> f32
  %k = cake.problem_size "K"
  scf.for %kt = %c0 to %k step %c1 {
    %slot = arith.remui %kt, %c4 : index
    // expected-error @+2 {{[smem.out-of-bounds] expected index 0 in [0, 3), but in thread 0 it reaches 3}}
    // expected-note @+1 {{fix: give dimension 0 of the buffer 4 elements, or bound the index below 3}}
    cake.store %zero, %ring[%slot, %tid] : f32, !cake.smem<3x128xf32>
  }
  %right = arith.addi %tid, %c1 : index
  // expected-error @+2 {{[smem.out-of-bounds] expected index 0 in [0, 128), but in thread 127 it reaches 128}}
  // expected-note @+1 {{fix: give dimension 0 of the buffer 129 elements, or bound the index below 128}}
  %n = cake.load %line[%right] : !cake.smem<128xf32> -> f32
  %quad = arith.muli %tid, %c4 : index
  %base = arith.remui %quad, %c64 : index
  %shift = arith.addi %base, %c66 : index
  // expected-error @+2 {{[smem.out-of-bounds] expected index 0 in [0, 128), but in thread 15 it reaches 129 (a 4-element access)}}
  // expected-note @+1 {{fix: give dimension 0 of the buffer 130 elements, or bound the index below 128}}
  %v = cake.load %wide[%shift] : !cake.smem<128xf32> -> vector<4xf32>
  cake.return
}

// -----

// min_blocks_per_sm: 8 blocks of 27.5 KiB (+ 1 KiB reserved each) fill an SM's 228 KiB on sm_90a.
cake.kernel @occupancy_fits() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>, min_blocks_per_sm = 8 : i64} {
  %a = cake.alloc_smem : !cake.smem<7040xf32>
  cake.return
}

// -----

// 4 bytes more do not: 7 fit.
// expected-error @+2 {{[smem.occupancy] min_blocks_per_sm = 8 blocks of 28164 bytes of shared memory (+ 1024 reserved each) do not fit in the 233472 bytes of an SM on sm_90a: 7 fit}}
// expected-note @+1 {{fix: use at most 28160 bytes per block, or set min_blocks_per_sm = 7}}
cake.kernel @occupancy_over() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>, min_blocks_per_sm = 8 : i64} {
  %a = cake.alloc_smem : !cake.smem<7041xf32>
  cake.return
}

// -----

// sm_80's SM holds 164 KiB: two blocks of 100 KiB do not fit.
// expected-error @+2 {{[smem.occupancy] min_blocks_per_sm = 2 blocks of 102400 bytes of shared memory (+ 1024 reserved each) do not fit in the 167936 bytes of an SM on sm_80: 1 fit}}
// expected-note @+1 {{fix: use at most 82944 bytes per block, or set min_blocks_per_sm = 1}}
cake.kernel @occupancy_ampere() attributes {target = "sm_80", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>, min_blocks_per_sm = 2 : i64} {
  %a = cake.alloc_smem : !cake.smem<25600xf32>
  cake.return
}
