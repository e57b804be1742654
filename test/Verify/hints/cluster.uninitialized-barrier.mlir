// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (cluster.uninitialized-barrier): lib/Verify/VerifyCluster.cpp
// (ClusterChecker::check).
// Only rank 1 initializes its barrier (thread 0 and rank 1), as if one init served the cluster.
// The hint, applied: the init guarded by thread_id == 0 alone (= ok_pair).

cake.kernel @bad_init(%w: !cake.tensor<[H, 32], f32> {cake.name = "w"},
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
  
  scf.if %t0r1 {
    // expected-error @+2 {{[cluster.uninitialized-barrier] rank 0 of the cluster of 2 never initializes barrier 0, on which the multicast copies of rank(s) 0, 1 complete}}
    // expected-note @+1 {{fix: initialize barrier 0 in every rank that receives the copies (rank 0 does not): one thread per block (thread_id x == 0, not conditioned on cake.cluster_block_id), then cake.fence.mbarrier_init and a cake.cluster_barrier before the first copy}}
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

// -----

cake.kernel @bad_init_fixed(%w: !cake.tensor<[H, 32], f32> {cake.name = "w"},
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
