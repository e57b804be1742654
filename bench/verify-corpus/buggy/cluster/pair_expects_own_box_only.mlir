// CORPUS: verdict=buggy class=cluster
// GPU: race (wrong result): the phase completes after 1024 of the 2048 bytes that land on the barrier
// WHY: each block expects only the bytes of its own copy, but both multicasts complete on its barrier.
// SIZES: M=100000,H=50000
// H200: hang (no exit within 6 s; killed)

cake.kernel @pair_expects_own_box_only(
    %x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %w: !cake.tensor<[H, 32], f32> {cake.name = "w"},
    %tw: !cake.tma<[H, 32], f32, box [8, 32]> {cake.name = "tw", cake.describes = "w"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M", "H"], grid = affine_map<()[m, h] -> ((m ceildiv 32) * 2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %cid = cake.cluster_id x
  // A cluster of 2 is one pair.
  %pairid = arith.addi %cid, %c0 : index
  %half = arith.addi %rank, %c0 : index
  %wbuf = cake.alloc_smem : !cake.smem<2x8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %mdim = cake.problem_size "M"
  %i = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %col = arith.muli %q, %c4 : index
  %half16 = arith.muli %half, %c16 : index
  %rows0 = arith.muli %pairid, %c32 : index
  %rows1 = arith.addi %rows0, %half16 : index
  %row = arith.addi %rows1, %i : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  scf.if %t0 {
    cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 1024 : !cake.mbarriers<1>
    %w16 = arith.muli %pairid, %c16 : index
    %r8 = arith.muli %half, %c8 : index
    %wrow = arith.addi %w16, %r8 : index
    cake.tma.load %tw[%wrow, %c0], %wbuf[%half], %bar[%c0] multicast %c3
        : !cake.tma<[H, 32], f32, box [8, 32]>, !cake.smem<2x8x32xf32>, !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %hi = arith.divui %i, %c8 : index
  %lo = arith.remui %i, %c8 : index
  %wv = cake.load %wbuf[%hi, %lo, %col] : !cake.smem<2x8x32xf32> -> vector<4xf32>
  %xv = cake.load %x[%row, %col] masked : !cake.tensor<[M, 32], f32> -> vector<4xf32>
  %pv = arith.mulf %xv, %wv : vector<4xf32>
  cake.store %pv, %y[%row, %col] masked : vector<4xf32>, !cake.tensor<[M, 32], f32>
  cake.cluster_barrier
  cake.return
}
