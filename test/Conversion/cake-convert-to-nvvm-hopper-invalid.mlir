// RUN: cake-opt %s --cake-convert-to-nvvm -split-input-file -verify-diagnostics -o /dev/null

// The lowering lays out the kernel's shared allocations (buffers, mbarrier arrays, pipelines) and
// rejects kernels whose layout, plus dynamic_smem, exceeds the target's per-block limit.

// 232448 bytes (227 KiB) fill sm_90a exactly; one more mbarrier (8 bytes) is too many.
// expected-error @+1 {{the kernel needs 232456 bytes of shared memory, more than the 232448 a block may use on sm_90a}}
cake.kernel @too_much_smem() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %buf = cake.alloc_smem : !cake.smem<232448xi8>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  cake.return
}

// -----

// A pipeline takes 16 bytes per stage: 232448 - 64 + 4 * 16 fits exactly ...
cake.kernel @fits() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %buf = cake.alloc_smem : !cake.smem<232384xi8>
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<4>
  cake.return
}

// -----

// ... and one more stage does not.
// expected-error @+1 {{the kernel needs 232464 bytes of shared memory, more than the 232448 a block may use on sm_90a}}
cake.kernel @too_many_stages() attributes {target = "sm_90a", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %buf = cake.alloc_smem : !cake.smem<232384xi8>
  %pipe = cake.pipeline.create consumers 1 : !cake.pipeline<5>
  cake.return
}

// -----

// Alignment padding counts: the 128-byte-swizzled buffer (226688 bytes) starts at 1024, after 8
// bytes of barriers.
// expected-error @+1 {{the kernel needs 227712 bytes of shared memory, more than the 166912 a block may use on sm_80}}
cake.kernel @sm80_limit() attributes {target = "sm_80", block = array<i64: 128>, grid = affine_map<() -> (1)>} {
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %buf = cake.alloc_smem : !cake.smem<1771x64xf16, swizzle = 128>
  cake.return
}

// -----

// dynamic_smem adds to the layout.
// expected-error @+1 {{the kernel needs 232449 bytes of shared memory, more than the 232448 a block may use on sm_90a}}
cake.kernel @dynamic() attributes {target = "sm_90a", block = array<i64: 128>, dynamic_smem = 1 : i64, grid = affine_map<() -> (1)>} {
  %buf = cake.alloc_smem : !cake.smem<232448xi8>
  cake.return
}
