// RUN: not cake-opt %s -split-input-file --pass-pipeline='builtin.module(cake-tactic-swizzle{bytes=128})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// RUN: not cake-opt %s -split-input-file --pass-pipeline='builtin.module(cake-tactic-swizzle{bytes=16})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: not cake-opt %cake_examples/hopper_gemm.mlir --pass-pipeline='builtin.module(cake-tactic-swizzle{bytes=128})' --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=WGMMA

// cake-tactic-swizzle refuses what it cannot retype safely, with the reason for each buffer.
// BYTES: error: [tactic.not-applicable] cake-tactic-swizzle: expected bytes 32, 64 or 128, got 16

// WGMMA: error: [tactic.not-applicable] cake-tactic-swizzle: no shared buffer qualifies
// WGMMA: note: !cake.smem<4x128x64xbf16, swizzle = 128>: already swizzled
// WGMMA: note: !cake.smem<4x256x64xbf16, swizzle = 128>: already swizzled

// CHECK: error: [tactic.not-applicable] cake-tactic-swizzle: no shared buffer qualifies
// CHECK: note: !cake.smem<256xf32>: rank 1 (no rows to swizzle)
// CHECK: note: !cake.smem<16x64xf32, swizzle = 64>: already swizzled
// CHECK: note: !cake.smem<16x64xf32, pad = 4>: padded (a buffer has a pad or a swizzle, not both)
// CHECK: note: !cake.smem<16x6xf32>: 24-byte rows (a swizzled row must be a multiple of 16 bytes)
// CHECK: note: !cake.smem<9x4xf32>: 144 bytes, not a multiple of the 128-byte swizzle span (accesses near the end would leave the buffer)
// CHECK: note: !cake.smem<16x64xf32>: a vector<4xf32> access whose innermost index is not provably a multiple of 4 (it could cross a 16-byte chunk, which the swizzle moves)
// CHECK: note: !cake.smem<16x64xf32>: a vector<4xf32> access whose innermost index is not provably a multiple of 4 (it could cross a 16-byte chunk, which the swizzle moves)
// CHECK: note: !cake.smem<16x64xf32>: a vector<2xf32> access whose innermost index is not provably a multiple of 2 (it could cross a 16-byte chunk, which the swizzle moves)
// CHECK: note: !cake.smem<16x64xf32>: used by 'cake.cp_async' (only buffers that just cake.load/cake.store touch are swizzled)
// CHECK: note: !cake.smem<16x64xf32>: used by 'cake.tma.load' (only buffers that just cake.load/cake.store touch are swizzled)
// CHECK: note: !cake.smem<16x64xf32>: unused
cake.kernel @refused(%a: !cake.tensor<[M, K], f32> {cake.name = "a"},
                     %ta: !cake.tma<[M, K], f32, box [16, 64]> {cake.name = "ta", cake.describes = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %tid = cake.thread_id x
  %flat = cake.alloc_smem : !cake.smem<256xf32>
  %done = cake.alloc_smem : !cake.smem<16x64xf32, swizzle = 64>
  %padded = cake.alloc_smem : !cake.smem<16x64xf32, pad = 4>
  %odd = cake.alloc_smem : !cake.smem<16x6xf32>
  %short = cake.alloc_smem : !cake.smem<9x4xf32>
  %mis = cake.alloc_smem : !cake.smem<16x64xf32>
  %unknown = cake.alloc_smem : !cake.smem<16x64xf32>
  %odd_loop = cake.alloc_smem : !cake.smem<16x64xf32>
  %async = cake.alloc_smem : !cake.smem<16x64xf32>
  %tmabuf = cake.alloc_smem : !cake.smem<16x64xf32>
  %unused = cake.alloc_smem : !cake.smem<16x64xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %w = cake.load %flat[%c0] : !cake.smem<256xf32> -> f32
  %s = cake.load %done[%c0, %c0] : !cake.smem<16x64xf32, swizzle = 64> -> f32
  %p = cake.load %padded[%c0, %c0] : !cake.smem<16x64xf32, pad = 4> -> f32
  %o = cake.load %odd[%c0, %c0] : !cake.smem<16x6xf32> -> f32
  %h = cake.load %short[%c0, %c0] : !cake.smem<9x4xf32> -> f32
  // Inner index 2 (8 bytes into a chunk): the 16-byte access straddles two chunks.
  %v = cake.load %mis[%c0, %c2] : !cake.smem<16x64xf32> -> vector<4xf32>
  // Inner index tid: nothing says it is a multiple of 4.
  %u = cake.load %unknown[%c0, %tid] : !cake.smem<16x64xf32> -> vector<4xf32>
  // Inner index 1 + 2i: odd.
  scf.for %j = %c1 to %c16 step %c2 {
    %q = cake.load %odd_loop[%c0, %j] : !cake.smem<16x64xf32> -> vector<2xf32>
  }
  cake.cp_async %a[%c0, %c0], %async[%c0, %c0], bytes 16 : !cake.tensor<[M, K], f32>, !cake.smem<16x64xf32>
  cake.tma.load %ta[%c0, %c0], %tmabuf[], %bars[%c0]
      : !cake.tma<[M, K], f32, box [16, 64]>, !cake.smem<16x64xf32>, !cake.mbarriers<1>
  cake.return
}

// -----

// Not applicable: a swizzled buffer is aligned to 8 * 128 bytes; after the 16-byte buffer that
// pushes this kernel over sm_80's 166912 bytes.
// CHECK: error: {{.*}}[tactic.not-applicable] cake-tactic-swizzle: the swizzled buffers' 1024-byte alignment needs 167040 bytes of shared memory, over the 166912 bytes of sm_80
cake.kernel @full() attributes {target = "sm_80", block = array<i64: 128>, symbols = [],
                                 grid = affine_map<() -> (1)>} {
  %c0 = arith.constant 0 : index
  %small = cake.alloc_smem : !cake.smem<4xf32>
  %big = cake.alloc_smem : !cake.smem<1297x32xf32>
  %w = cake.load %small[%c0] : !cake.smem<4xf32> -> f32
  %v = cake.load %big[%c0, %c0] : !cake.smem<1297x32xf32> -> f32
  cake.return
}

// -----

// Not applicable: `x mod K` and `x - K` with x = 4 * lane are multiples of 4 only when K is, and
// nothing says it is (IndexResidues keeps x's low bits only below the divisor's known zeros).
// CHECK: error: [tactic.not-applicable] cake-tactic-swizzle: no shared buffer qualifies
// CHECK: note: !cake.smem<16x64xf32>: a vector<4xf32> access whose innermost index is not provably a multiple of 4
// CHECK: note: !cake.smem<16x64xf32>: a vector<4xf32> access whose innermost index is not provably a multiple of 4
cake.kernel @unknown_divisor(%a: !cake.tensor<[M, K], f32> {cake.name = "a"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (1)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %tid = cake.thread_id x
  %k = cake.problem_size "K"
  %rem_buf = cake.alloc_smem : !cake.smem<16x64xf32>
  %sub_buf = cake.alloc_smem : !cake.smem<16x64xf32>
  %lane = arith.remui %tid, %c16 : index
  %x = arith.muli %lane, %c4 : index
  %rem = arith.remsi %x, %k : index
  %v = cake.load %rem_buf[%c0, %rem] : !cake.smem<16x64xf32> -> vector<4xf32>
  %sub = arith.subi %x, %k : index
  %w = cake.load %sub_buf[%c0, %sub] : !cake.smem<16x64xf32> -> vector<4xf32>
  cake.return
}
