// CORPUS: verdict=buggy class=smem-bounds
// GPU: wrong result or illegal address: thread 0 reads s[-1] and thread 255 reads s[256]
// WHY: neighbours at tid - 1 and tid + 1 without a halo or a clamp at the block's edges.
// SIZES: N=1000000
// H200: fault (CUDA_ERROR_ILLEGAL_ADDRESS)

cake.kernel @stencil_neighbours_unclamped(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c255 = arith.constant 255 : index
  %c256 = arith.constant 256 : index
  %c257 = arith.constant 257 : index
  %third = arith.constant 0.333333343 : f32
  %zero = arith.constant 0.0 : f32
  %s = cake.alloc_smem : !cake.smem<256xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  %tl = arith.subi %tid, %c1 : index
  %tr = arith.addi %tid, %c1 : index
  %l = cake.load %s[%tl] : !cake.smem<256xf32> -> f32
  %m = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
  %r = cake.load %s[%tr] : !cake.smem<256xf32> -> f32
  %lc = arith.addf %l, %m : f32
  %lcr = arith.addf %lc, %r : f32
  %avg = arith.mulf %lcr, %third : f32
  cake.store %avg, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
