// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (wgmma.a-registers-in-flight), lib/Verify/VerifyWgmma.cpp:355 (two texts):
//   with a wait: "wait with pending 0 before rewriting A, or double-buffer the A fragments (load the
//                 next one into an iteration argument)"
//   without:     "add cake.wgmma.wait 0 after the cake.wgmma.commit, before the fragment is redefined,
//                 or double-buffer the A fragments"
// Kernel: bench/verify-corpus/buggy/async-proxy/regs_fragment_from_global_wait1.mlir. Applied
// literally: the loop's cake.wgmma.wait 1 becomes 0 (= correct/.../regs_fragment_from_global_wait0).
// Honest. (The second text is covered by cake-verify-wgmma.mlir; not re-tested here.)

cake.kernel @regs_fragment_from_global_wait1(
    %a: !cake.tensor<[M, 128], f32> {cake.name = "a"},
    %b: !cake.tensor<[N, 128], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, 128], bf16, box [64, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (n ceildiv 64, m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c64 : index
  %n0 = arith.muli %bn, %c64 : index
  %bs = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  // The whole B panel (K = 128) is loaded once, one 64-wide tile per barrier.
  scf.if %t0 {
    scf.for %s = %c0 to %c2 step %c1 {
      %ks = arith.muli %s, %c64 : index
      cake.mbarrier.arrive_expect_tx %bars[%s], bytes 8192 : !cake.mbarriers<2>
      cake.tma.load %tb[%n0, %ks], %bs[%s], %bars[%s]
          : !cake.tma<[N, 128], bf16, box [64, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
    }
  }
  %warp = cake.warp_id
  %lane = cake.lane_id
  %wr = arith.muli %warp, %c16 : index
  %g = arith.divui %lane, %c4 : index
  %tq = arith.remui %lane, %c4 : index
  %q2 = arith.muli %tq, %c2 : index
  %r0a = arith.addi %m0, %wr : index
  %ra = arith.addi %r0a, %g : index
  %rb = arith.addi %ra, %c8 : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<2>
  cake.mbarrier.wait %bars[%c1], %c0 : !cake.mbarriers<2>
  // expected-note @+1 {{in this loop}}
  %acc = scf.for %ks = %c0 to %c8 step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    %kk0 = arith.muli %ks, %c16 : index
    %ka = arith.addi %kk0, %q2 : index
    %kb = arith.addi %ka, %c8 : index
    %p0 = cake.load %a[%ra, %ka] masked : !cake.tensor<[M, 128], f32> -> vector<2xf32>
    %p1 = cake.load %a[%rb, %ka] masked : !cake.tensor<[M, 128], f32> -> vector<2xf32>
    %p2 = cake.load %a[%ra, %kb] masked : !cake.tensor<[M, 128], f32> -> vector<2xf32>
    %p3 = cake.load %a[%rb, %kb] masked : !cake.tensor<[M, 128], f32> -> vector<2xf32>
    %h0 = arith.truncf %p0 : vector<2xf32> to vector<2xbf16>
    %h1 = arith.truncf %p1 : vector<2xf32> to vector<2xbf16>
    %h2 = arith.truncf %p2 : vector<2xf32> to vector<2xbf16>
    %h3 = arith.truncf %p3 : vector<2xf32> to vector<2xbf16>
    %h01 = vector.shuffle %h0, %h1 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
    %h23 = vector.shuffle %h2, %h3 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
    // expected-note @+1 {{the next iteration redefines the fragment here}}
    %frag = vector.shuffle %h01, %h23 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xbf16>, vector<4xbf16>
    %slot = arith.divui %ks, %c4 : index
    %kq = arith.remui %ks, %c4 : index
    %kin = arith.muli %kq, %c16 : index
    cake.wgmma.fence
    // expected-note @+1 {{cake.wgmma.regs reads the A fragment from registers here}}
    %acc1 = cake.wgmma.regs %frag, %bs[%slot, %c0, %kin], %acc0
        : vector<8xbf16>, !cake.smem<2x64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    // expected-error @+2 {{'cake.wgmma.wait' op [wgmma.a-registers-in-flight] expected pending 0: this wait leaves 1 wgmma group(s) in flight, and the next iteration rewrites the A registers they read}}
    // expected-note @+1 {{fix: wait with pending 0 before rewriting A, or double-buffer the A fragments (load the next one into an iteration argument)}}
    cake.wgmma.wait 1
    scf.yield %acc1 : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %acc, %c[%m0, %n0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}

// -----

cake.kernel @regs_fragment_from_global_wait1_fixed(
    %a: !cake.tensor<[M, 128], f32> {cake.name = "a"},
    %b: !cake.tensor<[N, 128], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, 128], bf16, box [64, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (n ceildiv 64, m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c64 : index
  %n0 = arith.muli %bn, %c64 : index
  %bs = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  // The whole B panel (K = 128) is loaded once, one 64-wide tile per barrier.
  scf.if %t0 {
    scf.for %s = %c0 to %c2 step %c1 {
      %ks = arith.muli %s, %c64 : index
      cake.mbarrier.arrive_expect_tx %bars[%s], bytes 8192 : !cake.mbarriers<2>
      cake.tma.load %tb[%n0, %ks], %bs[%s], %bars[%s]
          : !cake.tma<[N, 128], bf16, box [64, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
    }
  }
  %warp = cake.warp_id
  %lane = cake.lane_id
  %wr = arith.muli %warp, %c16 : index
  %g = arith.divui %lane, %c4 : index
  %tq = arith.remui %lane, %c4 : index
  %q2 = arith.muli %tq, %c2 : index
  %r0a = arith.addi %m0, %wr : index
  %ra = arith.addi %r0a, %g : index
  %rb = arith.addi %ra, %c8 : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<2>
  cake.mbarrier.wait %bars[%c1], %c0 : !cake.mbarriers<2>
  %acc = scf.for %ks = %c0 to %c8 step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    %kk0 = arith.muli %ks, %c16 : index
    %ka = arith.addi %kk0, %q2 : index
    %kb = arith.addi %ka, %c8 : index
    %p0 = cake.load %a[%ra, %ka] masked : !cake.tensor<[M, 128], f32> -> vector<2xf32>
    %p1 = cake.load %a[%rb, %ka] masked : !cake.tensor<[M, 128], f32> -> vector<2xf32>
    %p2 = cake.load %a[%ra, %kb] masked : !cake.tensor<[M, 128], f32> -> vector<2xf32>
    %p3 = cake.load %a[%rb, %kb] masked : !cake.tensor<[M, 128], f32> -> vector<2xf32>
    %h0 = arith.truncf %p0 : vector<2xf32> to vector<2xbf16>
    %h1 = arith.truncf %p1 : vector<2xf32> to vector<2xbf16>
    %h2 = arith.truncf %p2 : vector<2xf32> to vector<2xbf16>
    %h3 = arith.truncf %p3 : vector<2xf32> to vector<2xbf16>
    %h01 = vector.shuffle %h0, %h1 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
    %h23 = vector.shuffle %h2, %h3 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
    %frag = vector.shuffle %h01, %h23 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xbf16>, vector<4xbf16>
    %slot = arith.divui %ks, %c4 : index
    %kq = arith.remui %ks, %c4 : index
    %kin = arith.muli %kq, %c16 : index
    cake.wgmma.fence
    %acc1 = cake.wgmma.regs %frag, %bs[%slot, %c0, %kin], %acc0
        : vector<8xbf16>, !cake.smem<2x64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    cake.wgmma.wait 0
    scf.yield %acc1 : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %acc, %c[%m0, %n0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}
