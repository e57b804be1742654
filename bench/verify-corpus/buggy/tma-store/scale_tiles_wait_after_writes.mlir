// CORPUS: verdict=buggy class=tma-store
// GPU: race (wrong result): the other threads write the buffer before thread 0 waits
// WHY: thread 0 waits for the previous store group only after every thread rewrote the tile.
// SIZES: M=4096,N=4000
// H200: wrong result vs scale_tiles_wait_then_barrier, seed 9: 256 elements of 'y' differ, rel L2 0.0054

cake.kernel @scale_tiles_wait_after_writes(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, N], f32> {cake.name = "y"},
    %ty: !cake.tma<[M, N], f32, box [32, 32]> {cake.name = "ty", cake.describes = "y"},
    %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %ndim = cake.problem_size "N"
  %ntiles = arith.ceildivui %ndim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %tile = cake.alloc_smem : !cake.smem<32x32xf32>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %t32 = arith.cmpi eq, %tid, %c32 : index
  %r = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %cq = arith.muli %q, %c4 : index
  %grow = arith.addi %m0, %r : index
  %av = vector.broadcast %alpha : f32 to vector<4xf32>
  scf.for %j = %c0 to %ntiles step %c1 {
    %n0 = arith.muli %j, %c32 : index
    %gcol = arith.addi %n0, %cq : index
    %v = cake.load %x[%grow, %gcol] masked : !cake.tensor<[M, N], f32> -> vector<4xf32>
    %s = arith.mulf %v, %av : vector<4xf32>
    cake.barrier
    cake.store %s, %tile[%r, %cq] : vector<4xf32>, !cake.smem<32x32xf32>
    scf.if %t0 {
      cake.tma.store_wait 0
    }
    cake.fence.proxy_async
    cake.barrier
    scf.if %t0 {
      cake.tma.store %tile[], %ty[%m0, %n0] : !cake.smem<32x32xf32>, !cake.tma<[M, N], f32, box [32, 32]>
      cake.tma.store_commit
    }
  }
  scf.if %t0 {
    cake.tma.store_wait 0
  }
  cake.return
}
