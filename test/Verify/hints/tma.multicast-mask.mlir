// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (tma.multicast-mask), lib/Verify/VerifyTma.cpp (CakeVerifyTmaPass):
//   "set the mask to the ranks that wait for this copy's bytes, a nonzero subset of 0x3 (...)"
// The former text, "set the mask to a nonzero subset of 0x3", was not honest: it allowed 0x1 and
// 0x2 (and the mechanical 0x5 & 0x3 = 0x1), which leave a block of the pair expecting bytes that no
// copy delivers ([cluster.multicast-bytes]: a hang). Only 0x3, the ranks whose barriers expect the
// tile, is right here; the cluster model's hint ([cluster.multicast-mask]) names it. The second
// kernel (mask 0x3, = bench/verify-corpus/correct/cluster/pair_ktiles_cluster_barrier_per_step.mlir)
// is what both lead to.

cake.kernel @pair_ktiles_cluster_barrier_per_step(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %w: !cake.tensor<[H, K], f32> {cake.name = "w"},
    %tw: !cake.tma<[H, K], f32, box [8, 32]> {cake.name = "tw", cake.describes = "w"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M", "H", "K"], grid = affine_map<()[m, h, k] -> ((m ceildiv 32) * 2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  // expected-note @+1 {{the mask is defined here}}
  %c5 = arith.constant 5 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %cid = cake.cluster_id x
  %wbuf = cake.alloc_smem : !cake.smem<2x8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  %i = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %col = arith.muli %q, %c4 : index
  %hi = arith.divui %i, %c8 : index
  %lo = arith.remui %i, %c8 : index
  %half16 = arith.muli %rank, %c16 : index
  %rows0 = arith.muli %cid, %c32 : index
  %rows1 = arith.addi %rows0, %half16 : index
  %row = arith.addi %rows1, %i : index
  %w16 = arith.muli %cid, %c16 : index
  %r8 = arith.muli %rank, %c8 : index
  %wrow = arith.addi %w16, %r8 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%a = %zero) -> (vector<4xf32>) {
    %k0 = arith.muli %kt, %c32 : index
    %ph = arith.remui %kt, %c2 : index
    scf.if %t0 {
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 2048 : !cake.mbarriers<1>
      // expected-error @+4 {{'cake.tma.load' op [cluster.multicast-mask] rank 0 multicasts with mask 5: bit 2 names a block outside the cluster of 2}}
      // expected-error @+3 {{'cake.tma.load' op [tma.multicast-mask] expected a multicast mask of the cluster's 2 block ranks (a nonzero subset of 0x3), got 0x5}}
      // expected-note @+2 {{fix: set the mask to the ranks that wait for this copy's bytes, a nonzero subset of 0x3 (bit r = block rank r of the cluster; 0x3 when every block of the cluster expects the tile), or enlarge the cluster}}
      // expected-note @+1 {{fix: set the multicast mask to the ranks whose arrive_expect_tx counts this copy, inside the cluster of 2 (bits 0-1, here 0x3); masking off the outside bits alone (5 & 3 = 1) leaves rank 1 short of bytes}}
      cake.tma.load %tw[%wrow, %k0], %wbuf[%rank], %bar[%c0] multicast %c5
          : !cake.tma<[H, K], f32, box [8, 32]>, !cake.smem<2x8x32xf32>, !cake.mbarriers<1>
    }
    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    %wv = cake.load %wbuf[%hi, %lo, %col] : !cake.smem<2x8x32xf32> -> vector<4xf32>
    %kc = arith.addi %k0, %col : index
    %xv = cake.load %x[%row, %kc] masked : !cake.tensor<[M, K], f32> -> vector<4xf32>
    %pv = arith.mulf %xv, %wv : vector<4xf32>
    %a2 = arith.addf %a, %pv : vector<4xf32>
    cake.cluster_barrier
    scf.yield %a2 : vector<4xf32>
  }
  cake.store %acc, %y[%row, %col] masked : vector<4xf32>, !cake.tensor<[M, 32], f32>
  cake.cluster_barrier
  cake.return
}

// -----

cake.kernel @pair_ktiles_cluster_barrier_per_step(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %w: !cake.tensor<[H, K], f32> {cake.name = "w"},
    %tw: !cake.tma<[H, K], f32, box [8, 32]> {cake.name = "tw", cake.describes = "w"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M", "H", "K"], grid = affine_map<()[m, h, k] -> ((m ceildiv 32) * 2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %cid = cake.cluster_id x
  %wbuf = cake.alloc_smem : !cake.smem<2x8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  %i = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %col = arith.muli %q, %c4 : index
  %hi = arith.divui %i, %c8 : index
  %lo = arith.remui %i, %c8 : index
  %half16 = arith.muli %rank, %c16 : index
  %rows0 = arith.muli %cid, %c32 : index
  %rows1 = arith.addi %rows0, %half16 : index
  %row = arith.addi %rows1, %i : index
  %w16 = arith.muli %cid, %c16 : index
  %r8 = arith.muli %rank, %c8 : index
  %wrow = arith.addi %w16, %r8 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%a = %zero) -> (vector<4xf32>) {
    %k0 = arith.muli %kt, %c32 : index
    %ph = arith.remui %kt, %c2 : index
    scf.if %t0 {
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 2048 : !cake.mbarriers<1>
      cake.tma.load %tw[%wrow, %k0], %wbuf[%rank], %bar[%c0] multicast %c3
          : !cake.tma<[H, K], f32, box [8, 32]>, !cake.smem<2x8x32xf32>, !cake.mbarriers<1>
    }
    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    %wv = cake.load %wbuf[%hi, %lo, %col] : !cake.smem<2x8x32xf32> -> vector<4xf32>
    %kc = arith.addi %k0, %col : index
    %xv = cake.load %x[%row, %kc] masked : !cake.tensor<[M, K], f32> -> vector<4xf32>
    %pv = arith.mulf %xv, %wv : vector<4xf32>
    %a2 = arith.addf %a, %pv : vector<4xf32>
    cake.cluster_barrier
    scf.yield %a2 : vector<4xf32>
  }
  cake.store %acc, %y[%row, %col] masked : vector<4xf32>, !cake.tensor<[M, 32], f32>
  cake.cluster_barrier
  cake.return
}
