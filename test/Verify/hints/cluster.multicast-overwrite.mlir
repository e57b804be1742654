// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (cluster.multicast-overwrite): lib/Verify/VerifyCluster.cpp
// (checkMulticastOverwrite), both texts. Section 1: a block barrier ends each step; the hint
// makes it a cluster barrier (section 3). Section 2: no barrier at all; the hint adds a cluster
// barrier after the read and before the next copy (section 3 again: the end of the step).

cake.kernel @overwrite_block_barrier(%w: !cake.tensor<[H, K], f32> {cake.name = "w"},
    %tw: !cake.tma<[H, K], f32, box [8, 32]> {cake.name = "tw", cake.describes = "w"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 4>,
                symbols = ["M", "H", "K"], grid = affine_map<()[m, h, k] -> ((m ceildiv 32) * 4)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c15 = arith.constant 15 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %zero = arith.constant 0.0 : f32
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %cid = cake.cluster_id x
  %wbuf = cake.alloc_smem : !cake.smem<4x8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  %warp = arith.divui %tid, %c32 : index
  %lane = arith.remui %tid, %c32 : index
  %r32 = arith.muli %cid, %c32 : index
  %r8 = arith.muli %rank, %c8 : index
  %wrow = arith.addi %r32, %r8 : index
  %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%a = %zero) -> (f32) {
    %k0 = arith.muli %kt, %c32 : index
    %ph = arith.remui %kt, %c2 : index
    scf.if %t0 {
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 4096 : !cake.mbarriers<1>
      // expected-error @+2 {{[cluster.multicast-overwrite] rank 0's multicast writes slot [0] of this buffer in rank 1 in every iteration of the loop, and rank 1 reads that slot in the loop with no cluster barrier between its read and rank 0's next copy: the next copy can overwrite the tile rank 1 still reads (a block barrier orders one block, not its peers' copies)}}
      // expected-note @+1 {{fix: make the block barrier between this read and the next copy a cake.cluster_barrier, so that no rank issues the next copy before every receiver has read the current tile}}
      cake.tma.load %tw[%wrow, %k0], %wbuf[%rank], %bar[%c0] multicast %c15
          : !cake.tma<[H, K], f32, box [8, 32]>, !cake.smem<4x8x32xf32>, !cake.mbarriers<1>
    }
    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    // expected-note @+1 {{rank 1 reads the slot here}}
    %v = cake.load %wbuf[%warp, %c0, %lane] : !cake.smem<4x8x32xf32> -> f32
    %a2 = arith.addf %a, %v : f32
    cake.barrier
    scf.yield %a2 : f32
  }
  %row = arith.addi %r32, %warp : index
  cake.store %sum, %y[%row, %lane] masked : f32, !cake.tensor<[M, 32], f32>
  cake.cluster_barrier
  cake.return
}


// -----

cake.kernel @overwrite_block_barrier(%w: !cake.tensor<[H, K], f32> {cake.name = "w"},
    %tw: !cake.tma<[H, K], f32, box [8, 32]> {cake.name = "tw", cake.describes = "w"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 4>,
                symbols = ["M", "H", "K"], grid = affine_map<()[m, h, k] -> ((m ceildiv 32) * 4)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c15 = arith.constant 15 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %zero = arith.constant 0.0 : f32
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %cid = cake.cluster_id x
  %wbuf = cake.alloc_smem : !cake.smem<4x8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  %warp = arith.divui %tid, %c32 : index
  %lane = arith.remui %tid, %c32 : index
  %r32 = arith.muli %cid, %c32 : index
  %r8 = arith.muli %rank, %c8 : index
  %wrow = arith.addi %r32, %r8 : index
  %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%a = %zero) -> (f32) {
    %k0 = arith.muli %kt, %c32 : index
    %ph = arith.remui %kt, %c2 : index
    scf.if %t0 {
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 4096 : !cake.mbarriers<1>
      // expected-error @+2 {{[cluster.multicast-overwrite] rank 0's multicast writes slot [0] of this buffer in rank 1 in every iteration of the loop, and rank 1 reads that slot in the loop with no cluster barrier between its read and rank 0's next copy: the next copy can overwrite the tile rank 1 still reads}}
      // expected-note @+1 {{fix: add a cake.cluster_barrier after the read and before the next copy (every thread of every rank reaching it once per iteration), so that no rank issues the next copy before every receiver has read the current tile}}
      cake.tma.load %tw[%wrow, %k0], %wbuf[%rank], %bar[%c0] multicast %c15
          : !cake.tma<[H, K], f32, box [8, 32]>, !cake.smem<4x8x32xf32>, !cake.mbarriers<1>
    }
    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    // expected-note @+1 {{rank 1 reads the slot here}}
    %v = cake.load %wbuf[%warp, %c0, %lane] : !cake.smem<4x8x32xf32> -> f32
    %a2 = arith.addf %a, %v : f32
    scf.yield %a2 : f32
  }
  %row = arith.addi %r32, %warp : index
  cake.store %sum, %y[%row, %lane] masked : f32, !cake.tensor<[M, 32], f32>
  cake.cluster_barrier
  cake.return
}


// -----

cake.kernel @cluster_barrier_per_step(%w: !cake.tensor<[H, K], f32> {cake.name = "w"},
    %tw: !cake.tma<[H, K], f32, box [8, 32]> {cake.name = "tw", cake.describes = "w"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 4>,
                symbols = ["M", "H", "K"], grid = affine_map<()[m, h, k] -> ((m ceildiv 32) * 4)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c15 = arith.constant 15 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %zero = arith.constant 0.0 : f32
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %cid = cake.cluster_id x
  %wbuf = cake.alloc_smem : !cake.smem<4x8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  %warp = arith.divui %tid, %c32 : index
  %lane = arith.remui %tid, %c32 : index
  %r32 = arith.muli %cid, %c32 : index
  %r8 = arith.muli %rank, %c8 : index
  %wrow = arith.addi %r32, %r8 : index
  %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%a = %zero) -> (f32) {
    %k0 = arith.muli %kt, %c32 : index
    %ph = arith.remui %kt, %c2 : index
    scf.if %t0 {
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 4096 : !cake.mbarriers<1>
      cake.tma.load %tw[%wrow, %k0], %wbuf[%rank], %bar[%c0] multicast %c15
          : !cake.tma<[H, K], f32, box [8, 32]>, !cake.smem<4x8x32xf32>, !cake.mbarriers<1>
    }
    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    %v = cake.load %wbuf[%warp, %c0, %lane] : !cake.smem<4x8x32xf32> -> f32
    %a2 = arith.addf %a, %v : f32
    cake.cluster_barrier
    scf.yield %a2 : f32
  }
  %row = arith.addi %r32, %warp : index
  cake.store %sum, %y[%row, %lane] masked : f32, !cake.tensor<[M, 32], f32>
  cake.cluster_barrier
  cake.return
}

// -----

// Section 4: the copy of the next tile after the read, guarded by kt + 1 < ktiles; the hint
// (the block barrier made a cluster barrier) gives section 5, clean.
cake.kernel @overwrite_prefetch_next(%w: !cake.tensor<[H, K], f32> {cake.name = "w"},
    %tw: !cake.tma<[H, K], f32, box [8, 32]> {cake.name = "tw", cake.describes = "w"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 4>,
                symbols = ["M", "H", "K"], grid = affine_map<()[m, h, k] -> ((m ceildiv 32) * 4)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c15 = arith.constant 15 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %zero = arith.constant 0.0 : f32
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %cid = cake.cluster_id x
  %wbuf = cake.alloc_smem : !cake.smem<4x8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  %warp = arith.divui %tid, %c32 : index
  %lane = arith.remui %tid, %c32 : index
  %r32 = arith.muli %cid, %c32 : index
  %r8 = arith.muli %rank, %c8 : index
  %wrow = arith.addi %r32, %r8 : index
  scf.if %t0 {
    cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 4096 : !cake.mbarriers<1>
    cake.tma.load %tw[%wrow, %c0], %wbuf[%rank], %bar[%c0] multicast %c15
        : !cake.tma<[H, K], f32, box [8, 32]>, !cake.smem<4x8x32xf32>, !cake.mbarriers<1>
  }
  %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%a = %zero) -> (f32) {
    %ph = arith.remui %kt, %c2 : index
    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    // expected-note @+1 {{rank 1 reads the slot here}}
    %v = cake.load %wbuf[%warp, %c0, %lane] : !cake.smem<4x8x32xf32> -> f32
    %a2 = arith.addf %a, %v : f32
    cake.barrier
    %next = arith.addi %kt, %c1 : index
    %more = arith.cmpi ult, %next, %ktiles : index
    %go = arith.andi %t0, %more : i1
    scf.if %go {
      %k1 = arith.muli %next, %c32 : index
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 4096 : !cake.mbarriers<1>
      // expected-error @+2 {{[cluster.multicast-overwrite] rank 0's multicast writes slot [0] of this buffer in rank 1 in every iteration of the loop, and rank 1 reads that slot in the loop with no cluster barrier between its read and rank 0's next copy: the next copy can overwrite the tile rank 1 still reads (a block barrier orders one block, not its peers' copies)}}
      // expected-note @+1 {{fix: make the block barrier between this read and the next copy a cake.cluster_barrier, so that no rank issues the next copy before every receiver has read the current tile}}
      cake.tma.load %tw[%wrow, %k1], %wbuf[%rank], %bar[%c0] multicast %c15
          : !cake.tma<[H, K], f32, box [8, 32]>, !cake.smem<4x8x32xf32>, !cake.mbarriers<1>
    }
    scf.yield %a2 : f32
  }
  %row = arith.addi %r32, %warp : index
  cake.store %sum, %y[%row, %lane] masked : f32, !cake.tensor<[M, 32], f32>
  cake.cluster_barrier
  cake.return
}


// -----

cake.kernel @prefetch_after_cluster_barrier(%w: !cake.tensor<[H, K], f32> {cake.name = "w"},
    %tw: !cake.tma<[H, K], f32, box [8, 32]> {cake.name = "tw", cake.describes = "w"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 4>,
                symbols = ["M", "H", "K"], grid = affine_map<()[m, h, k] -> ((m ceildiv 32) * 4)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c15 = arith.constant 15 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %zero = arith.constant 0.0 : f32
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %cid = cake.cluster_id x
  %wbuf = cake.alloc_smem : !cake.smem<4x8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  %warp = arith.divui %tid, %c32 : index
  %lane = arith.remui %tid, %c32 : index
  %r32 = arith.muli %cid, %c32 : index
  %r8 = arith.muli %rank, %c8 : index
  %wrow = arith.addi %r32, %r8 : index
  scf.if %t0 {
    cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 4096 : !cake.mbarriers<1>
    cake.tma.load %tw[%wrow, %c0], %wbuf[%rank], %bar[%c0] multicast %c15
        : !cake.tma<[H, K], f32, box [8, 32]>, !cake.smem<4x8x32xf32>, !cake.mbarriers<1>
  }
  %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%a = %zero) -> (f32) {
    %ph = arith.remui %kt, %c2 : index
    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    %v = cake.load %wbuf[%warp, %c0, %lane] : !cake.smem<4x8x32xf32> -> f32
    %a2 = arith.addf %a, %v : f32
    cake.cluster_barrier
    %next = arith.addi %kt, %c1 : index
    %more = arith.cmpi ult, %next, %ktiles : index
    %go = arith.andi %t0, %more : i1
    scf.if %go {
      %k1 = arith.muli %next, %c32 : index
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 4096 : !cake.mbarriers<1>
      cake.tma.load %tw[%wrow, %k1], %wbuf[%rank], %bar[%c0] multicast %c15
          : !cake.tma<[H, K], f32, box [8, 32]>, !cake.smem<4x8x32xf32>, !cake.mbarriers<1>
    }
    scf.yield %a2 : f32
  }
  %row = arith.addi %r32, %warp : index
  cake.store %sum, %y[%row, %lane] masked : f32, !cake.tensor<[M, 32], f32>
  cake.cluster_barrier
  cake.return
}
