// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (cluster.init-not-published): lib/Verify/VerifyCluster.cpp
// (ClusterChecker::check).
// A block barrier, not a cluster barrier, sits between the inits and the copies. The hint,
// applied: that cake.barrier becomes cake.cluster_barrier (= ok_pair).

cake.kernel @bad_publish(%w: !cake.tensor<[H, 32], f32> {cake.name = "w"},
    %tw: !cake.tma<[H, 32], f32, box [8, 32]> {cake.name = "tw", cake.describes = "w"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M", "H"], grid = affine_map<()[m, h] -> (m ceildiv 16)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %m3 = arith.constant 3 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %wbuf = cake.alloc_smem : !cake.smem<2x8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %r0 = arith.cmpi eq, %rank, %c0 : index
  %r1 = arith.cmpi eq, %rank, %c1 : index
  %t0r1 = arith.andi %t0, %r1 : i1
  %m5 = arith.addi %rank, %c5 : index
  %pairbase = arith.divui %rank, %c2 : index
  %shift = arith.muli %pairbase, %c2 : index
  %m3s = arith.shli %m3, %shift : index
  %half = arith.remui %rank, %c2 : index
  
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  scf.if %t0 {
    cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 2048 : !cake.mbarriers<1>
    %row = arith.muli %half, %c8 : index
    // expected-error @+2 {{[cluster.init-not-published] rank 0's multicast completes on barrier 0 of rank 1, but no cake.cluster_barrier between that barrier's init and this copy makes the init visible to the cluster (a block barrier orders one block)}}
    // expected-note @+1 {{fix: put a cake.cluster_barrier (not a cake.barrier, which orders one block) between the barrier's init and fence and the first multicast copy, in every rank}}
    cake.tma.load %tw[%row, %c0], %wbuf[%rank], %bar[%c0] multicast %m3
        : !cake.tma<[H, 32], f32, box [8, 32]>, !cake.smem<2x8x32xf32>, !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %hi = arith.divui %tid, %c64 : index
  %lo0 = arith.remui %tid, %c64 : index
  %lo = arith.divui %lo0, %c8 : index
  %col0 = arith.remui %tid, %c8 : index
  %col = arith.muli %col0, %c4 : index
  %wv = cake.load %wbuf[%hi, %lo, %col] : !cake.smem<2x8x32xf32> -> vector<4xf32>
  %bx = cake.block_id x
  %row0 = arith.muli %bx, %c16 : index
  %r = arith.divui %tid, %c8 : index
  %orow = arith.addi %row0, %r : index
  cake.store %wv, %y[%orow, %col] masked : vector<4xf32>, !cake.tensor<[M, 32], f32>

  cake.cluster_barrier
  cake.return
}

// -----

cake.kernel @bad_publish_fixed(%w: !cake.tensor<[H, 32], f32> {cake.name = "w"},
    %tw: !cake.tma<[H, 32], f32, box [8, 32]> {cake.name = "tw", cake.describes = "w"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M", "H"], grid = affine_map<()[m, h] -> (m ceildiv 16)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %m3 = arith.constant 3 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %wbuf = cake.alloc_smem : !cake.smem<2x8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %r0 = arith.cmpi eq, %rank, %c0 : index
  %r1 = arith.cmpi eq, %rank, %c1 : index
  %t0r1 = arith.andi %t0, %r1 : i1
  %m5 = arith.addi %rank, %c5 : index
  %pairbase = arith.divui %rank, %c2 : index
  %shift = arith.muli %pairbase, %c2 : index
  %m3s = arith.shli %m3, %shift : index
  %half = arith.remui %rank, %c2 : index
  
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  scf.if %t0 {
    cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 2048 : !cake.mbarriers<1>
    %row = arith.muli %half, %c8 : index
    cake.tma.load %tw[%row, %c0], %wbuf[%rank], %bar[%c0] multicast %m3
        : !cake.tma<[H, 32], f32, box [8, 32]>, !cake.smem<2x8x32xf32>, !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %hi = arith.divui %tid, %c64 : index
  %lo0 = arith.remui %tid, %c64 : index
  %lo = arith.divui %lo0, %c8 : index
  %col0 = arith.remui %tid, %c8 : index
  %col = arith.muli %col0, %c4 : index
  %wv = cake.load %wbuf[%hi, %lo, %col] : !cake.smem<2x8x32xf32> -> vector<4xf32>
  %bx = cake.block_id x
  %row0 = arith.muli %bx, %c16 : index
  %r = arith.divui %tid, %c8 : index
  %orow = arith.addi %row0, %r : index
  cake.store %wv, %y[%orow, %col] masked : vector<4xf32>, !cake.tensor<[M, 32], f32>

  cake.cluster_barrier
  cake.return
}
