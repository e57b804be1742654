// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (wgmma.operand-race), lib/Verify/PathSimulation.cpp:1035:
//   "cake.wgmma.wait with pending low enough to retire the group that reads the buffer (then a
//    barrier for other threads) before writing it again, or give the writes another buffer"
// Kernel: bench/verify-corpus/buggy/async-proxy/castmm_wait1_single_buffer.mlir (wait 1 over single
// buffers). Applied: the wait before the loop's closing barrier becomes cake.wgmma.wait 0 (the
// barrier is already there). Honest; the pending count (0) is left to the reader.

cake.kernel @castmm_wait1_single_buffer(
    %a: !cake.tensor<[M, K], f32> {cake.name = "a"},
    %b: !cake.tensor<[N, K], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, K], bf16, box [64, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (n ceildiv 64, m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c64 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c64 : index
  %n0 = arith.muli %bn, %c64 : index
  %as = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bs = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  // Thread t converts row t / 2, columns 32 (t mod 2) .. + 32 of the A tile.
  %r = arith.divui %tid, %c2 : index
  %half = arith.remui %tid, %c2 : index
  %cb = arith.muli %half, %c32 : index
  %grow = arith.addi %m0, %r : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    %k0 = arith.muli %kt, %c64 : index
    %ph = arith.remui %kt, %c2 : index
    scf.if %t0 {
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 8192 : !cake.mbarriers<1>
      cake.tma.load %tb[%n0, %k0], %bs[], %bar[%c0]
          : !cake.tma<[N, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<1>
    }
    scf.for %q = %c0 to %c8 step %c1 {
      %q4 = arith.muli %q, %c4 : index
      %col = arith.addi %cb, %q4 : index
      %gk = arith.addi %k0, %col : index
      %v = cake.load %a[%grow, %gk] masked : !cake.tensor<[M, K], f32> -> vector<4xf32>
      %h = arith.truncf %v : vector<4xf32> to vector<4xbf16>
      // expected-error @+2 {{'cake.store' op [wgmma.operand-race] expected this write to the buffer to wait for the wgmma that reads it (thread 0's group, retired by a cake.wgmma.wait and then a block barrier), but in thread 0 with M=200,N=200,K=200 (iteration 1, iteration 0) nothing orders them}}
      // expected-note @+1 {{fix: cake.wgmma.wait with pending low enough to retire the group that reads the buffer (then a barrier for other threads) before writing it again, or give the writes another buffer}}
      cake.store %h, %as[%r, %col] : vector<4xbf16>, !cake.smem<64x64xbf16, swizzle = 128>
    }
    cake.fence.proxy_async
    cake.barrier
    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    cake.wgmma.fence
    // expected-note @+1 {{the wgmma reads the buffer here (iteration 0)}}
    %a1 = cake.wgmma %as[%c0, %c0], %bs[%c0, %c0], %acc0
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    // expected-note @+1 {{the wgmma reads the buffer here (iteration 0)}}
    %a2 = cake.wgmma %as[%c0, %c16], %bs[%c0, %c16], %a1
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    // expected-note @+1 {{the wgmma reads the buffer here (iteration 0)}}
    %a3 = cake.wgmma %as[%c0, %c32], %bs[%c0, %c32], %a2
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    // expected-note @+1 {{the wgmma reads the buffer here (iteration 0)}}
    %a4 = cake.wgmma %as[%c0, %c48], %bs[%c0, %c48], %a3
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    // expected-note @+1 {{and is retired here}}
    cake.wgmma.wait 1
    cake.barrier
    scf.yield %a4 : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %acc, %c[%m0, %n0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

cake.kernel @castmm_wait1_single_buffer_fixed(
    %a: !cake.tensor<[M, K], f32> {cake.name = "a"},
    %b: !cake.tensor<[N, K], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, K], bf16, box [64, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (n ceildiv 64, m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c64 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c64 : index
  %n0 = arith.muli %bn, %c64 : index
  %as = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bs = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  // Thread t converts row t / 2, columns 32 (t mod 2) .. + 32 of the A tile.
  %r = arith.divui %tid, %c2 : index
  %half = arith.remui %tid, %c2 : index
  %cb = arith.muli %half, %c32 : index
  %grow = arith.addi %m0, %r : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    %k0 = arith.muli %kt, %c64 : index
    %ph = arith.remui %kt, %c2 : index
    scf.if %t0 {
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 8192 : !cake.mbarriers<1>
      cake.tma.load %tb[%n0, %k0], %bs[], %bar[%c0]
          : !cake.tma<[N, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<1>
    }
    scf.for %q = %c0 to %c8 step %c1 {
      %q4 = arith.muli %q, %c4 : index
      %col = arith.addi %cb, %q4 : index
      %gk = arith.addi %k0, %col : index
      %v = cake.load %a[%grow, %gk] masked : !cake.tensor<[M, K], f32> -> vector<4xf32>
      %h = arith.truncf %v : vector<4xf32> to vector<4xbf16>
      cake.store %h, %as[%r, %col] : vector<4xbf16>, !cake.smem<64x64xbf16, swizzle = 128>
    }
    cake.fence.proxy_async
    cake.barrier
    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    cake.wgmma.fence
    %a1 = cake.wgmma %as[%c0, %c0], %bs[%c0, %c0], %acc0
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    %a2 = cake.wgmma %as[%c0, %c16], %bs[%c0, %c16], %a1
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    %a3 = cake.wgmma %as[%c0, %c32], %bs[%c0, %c32], %a2
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    %a4 = cake.wgmma %as[%c0, %c48], %bs[%c0, %c48], %a3
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    cake.wgmma.wait 0
    cake.barrier
    scf.yield %a4 : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %acc, %c[%m0, %n0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}
