// CORPUS: verdict=buggy class=smem-bounds
// GPU: wrong result or illegal address: rows 32..63 of the mapping are written past the 32-row tile
// WHY: the thread mapping (tid / 4, 4 (tid mod 4)) covers a 64x16 tile, the buffer is 32x32.
// SIZES: M=100000
// H200: fault (CUDA_ERROR_ILLEGAL_ADDRESS)

cake.kernel @tile_mapping_64_rows_on_32(
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
  %r = arith.divui %tid, %c4 : index
  %q = arith.remui %tid, %c4 : index
  %col = arith.muli %q, %c4 : index
  %grow = arith.addi %m0, %r : index
  %v = cake.load %x[%grow, %col] masked : !cake.tensor<[M, 32], f32> -> vector<4xf32>
  cake.store %v, %tile[%r, %col] : vector<4xf32>, !cake.smem<32x32xf32, pad = 4>
  cake.barrier
  // Forward difference with the next 4 columns of the row.
  %w = cake.load %tile[%col, %r] : !cake.smem<32x32xf32, pad = 4> -> f32
  %wv = vector.broadcast %w : f32 to vector<4xf32>
  %d = arith.mulf %wv, %v : vector<4xf32>
  cake.store %d, %y[%grow, %col] masked : vector<4xf32>, !cake.tensor<[M, 32], f32>
  cake.return
}
