// RUN: cake-opt %s -split-input-file -verify-diagnostics --cake-verify -o /dev/null

// Hint under test (cluster.multicast-coverage): lib/Verify/VerifyCluster.cpp
// (ClusterChecker::check).
// Every rank multicasts into slot 0; slot 1, which every rank reads, is never written. The hint,
// applied: destination slot %rank (= ok_pair).

cake.kernel @bad_slot(%w: !cake.tensor<[H, 32], f32> {cake.name = "w"},
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
    cake.tma.load %tw[%row, %c0], %wbuf[%c0], %bar[%c0] multicast %m3
        : !cake.tma<[H, 32], f32, box [8, 32]>, !cake.smem<2x8x32xf32>, !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %hi = arith.divui %tid, %c64 : index
  %lo0 = arith.remui %tid, %c64 : index
  %lo = arith.divui %lo0, %c8 : index
  %col0 = arith.remui %tid, %c8 : index
  %col = arith.muli %col0, %c4 : index
  // expected-error @+2 {{[cluster.multicast-coverage] rank 0 of the cluster of 2 reads slot [1] of the buffer, which no TMA copy of the cluster writes in it (the copies land in [0])}}
  // expected-note @+1 {{fix: make the cluster's copies write slot [1] in rank 0: a multicast lands in the same slot of every receiver, so give each sender its own slot (index the destination by cake.cluster_block_id), or read only the slots written ([0])}}
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

cake.kernel @bad_slot_fixed(%w: !cake.tensor<[H, 32], f32> {cake.name = "w"},
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
