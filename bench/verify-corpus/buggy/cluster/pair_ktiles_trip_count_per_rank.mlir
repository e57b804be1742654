// CORPUS: verdict=buggy class=cluster
// GPU: hang (the two blocks of a cluster run different numbers of cluster barriers)
// WHY: rank 1 stops one k tile early (it was meant to skip a ragged tail), so its peer waits at a
//      cluster barrier (and for a multicast half) that never comes.
// SIZES: M=65536,H=32768,K=4096
// H200: hang (no exit within 6 s; killed)

cake.kernel @pair_ktiles_trip_count_per_rank(
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
  %short = arith.subi %ktiles, %rank : index
  %mytrips = arith.maxui %short, %c1 : index
  %acc = scf.for %kt = %c0 to %mytrips step %c1 iter_args(%a = %zero) -> (vector<4xf32>) {
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
