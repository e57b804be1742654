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
// expected-note @+1 {{fix: free at least 8 bytes: e.g. give the biggest buffer 3 instead of 4 stages (leading dimension; keep its pipeline's stages equal), or use smaller tiles}}
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
// expected-note @+1 {{fix: free at least 13312 bytes: e.g. give the biggest buffer 3 instead of 4 stages (leading dimension; keep its pipeline's stages equal), or use smaller tiles}}
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
// expected-note @+1 {{fix: free at least 33088 bytes: e.g. give the biggest buffer 1 instead of 4 stages (leading dimension; keep its pipeline's stages equal), or use smaller tiles}}
cake.kernel @dynamic() attributes {target = "sm_90a", block = array<i64: 128>, symbols = [],
                                grid = affine_map<() -> (1)>, dynamic_smem = 200000} {
  // expected-note @+1 {{65536 bytes at offset 0 (!cake.smem<4x128x64xbf16, swizzle = 128>)}}
  %a = cake.alloc_smem : !cake.smem<4x128x64xbf16, swizzle = 128>
  cake.return
}
