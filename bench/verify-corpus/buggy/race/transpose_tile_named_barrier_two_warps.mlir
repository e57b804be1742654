// CORPUS: verdict=buggy class=race
// GPU: race (wrong result): warps 2..7 do not wait for anyone before reading the tile
// WHY: a named barrier over 64 threads (warps 0 and 1 only) stands in for the block barrier.
// SIZES: M=4000,N=3000
// H200: wrong result vs transpose_tile_barrier, seed 7: 2213815 elements of 'y' differ, 642692 non-finite where the reference is finite, rel L2 0.61

cake.kernel @transpose_tile_named_barrier_two_warps(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N, M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (n ceildiv 32, m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %tile = cake.alloc_smem : !cake.smem<32x32xf32, pad = 1>
  %tid = cake.thread_id x
  %bx = cake.block_id x
  %by = cake.block_id y
  %tx = arith.remui %tid, %c32 : index
  %ty = arith.divui %tid, %c32 : index
  %m0 = arith.muli %by, %c32 : index
  %n0 = arith.muli %bx, %c32 : index
  %gc = arith.addi %n0, %tx : index
  scf.for %j = %c0 to %c4 step %c1 {
    %j8 = arith.muli %j, %c8 : index
    %r = arith.addi %ty, %j8 : index
    %gr = arith.addi %m0, %r : index
    %v = cake.load %x[%gr, %gc] masked : !cake.tensor<[M, N], f32> -> f32
    cake.store %v, %tile[%r, %tx] : f32, !cake.smem<32x32xf32, pad = 1>
  }
  %warp = cake.warp_id
  %lo2 = arith.cmpi ult, %warp, %c2 : index
  scf.if %lo2 {
    cake.named_barrier 1, threads 64
  }
  %oc = arith.addi %m0, %tx : index
  scf.for %j = %c0 to %c4 step %c1 {
    %j8 = arith.muli %j, %c8 : index
    %r = arith.addi %ty, %j8 : index
    %v = cake.load %tile[%tx, %r] : !cake.smem<32x32xf32, pad = 1> -> f32
    %orow = arith.addi %n0, %r : index
    cake.store %v, %y[%orow, %oc] masked : f32, !cake.tensor<[N, M], f32>
  }
  cake.return
}
