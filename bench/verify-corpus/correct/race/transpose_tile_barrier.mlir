// CORPUS: verdict=correct class=race
// GPU: none (correct)
// WHY: the tile is written by rows and read by columns, with a block barrier in between.
// SIZES: M=4000,N=3000
// H200: ok (ran; every output element written)

cake.kernel @transpose_tile_barrier(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N, M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (n ceildiv 32, m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
  cake.barrier
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
