// CORPUS: verdict=buggy class=smem-bounds
// GPU: wrong result: the last thread of each row reads columns 32..35, the row's padding
// WHY: the next-columns index col + 4 runs past the innermost extent (into the pad) for col = 28.
// SIZES: M=100000
// H200: wrong result vs padded_tile_forward_difference, seed 7: 400000 elements of 'y' differ, rel L2 0.27

cake.kernel @padded_tile_read_into_pad(
    %x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M"],
                grid = affine_map<()[m] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c28 = arith.constant 28 : index
  %c32 = arith.constant 32 : index
  %tile = cake.alloc_smem : !cake.smem<32x32xf32, pad = 4>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %r = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %col = arith.muli %q, %c4 : index
  %grow = arith.addi %m0, %r : index
  %v = cake.load %x[%grow, %col] masked : !cake.tensor<[M, 32], f32> -> vector<4xf32>
  cake.store %v, %tile[%r, %col] : vector<4xf32>, !cake.smem<32x32xf32, pad = 4>
  cake.barrier
  // Forward difference with the next 4 columns of the row.
  %ncol = arith.addi %col, %c4 : index
  %w = cake.load %tile[%r, %ncol] : !cake.smem<32x32xf32, pad = 4> -> vector<4xf32>
  %d = arith.subf %w, %v : vector<4xf32>
  cake.store %d, %y[%grow, %col] masked : vector<4xf32>, !cake.tensor<[M, 32], f32>
  cake.return
}
