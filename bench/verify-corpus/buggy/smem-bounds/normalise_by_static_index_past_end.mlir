// CORPUS: verdict=buggy class=smem-bounds
// GPU: wrong result: s[256] is past the 256-float buffer (reads whatever lies behind it)
// WHY: a static index one past the end (the size instead of the last index).
// SIZES: N=1048576
// H200: fault (CUDA_ERROR_ILLEGAL_ADDRESS)

cake.kernel @normalise_by_static_index_past_end(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %clast = arith.constant 256 : index
  %c256 = arith.constant 256 : index
  %s = cake.alloc_smem : !cake.smem<256xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  // Normalise by the block's last element.
  %last = cake.load %s[%clast] : !cake.smem<256xf32> -> f32
  %q = arith.divf %v, %last : f32
  cake.store %q, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
