// Tunable seed of examples/kmeans_assign.mlir (naive fp32 assignment): one warp per point, PPB points
// (warps) per block, so block = 32 * PPB threads.
cake.kernel @kmeans_assign(%x: !cake.tensor<[N, D], f32> {cake.name = "x"},
                           %c: !cake.tensor<[K, D], f32> {cake.name = "c"},
                           %idx: !cake.tensor<[N], i32> {cake.name = "idx"},
                           %dist: !cake.tensor<[N], f32> {cake.name = "dist"})
    attributes {target = "sm_90a", block = array<i64: {{32 * PPB}}>, symbols = ["N", "K", "D"],
                grid = affine_map<()[n, k, d] -> (n ceildiv {{PPB}})>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cppb = arith.constant {{PPB}} : index
  %c32 = arith.constant 32 : index
  %inf = arith.constant 0x7F800000 : f32
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %ddim = cake.problem_size "D"
  %b = cake.block_id x
  %w = cake.warp_id
  %lane = cake.lane_id
  %p0 = arith.muli %b, %cppb : index
  %i = arith.addi %p0, %w : index
  %kbig = arith.index_cast %kdim : index to i32

  %best:2 = scf.for %k = %lane to %kdim step %c32 iter_args(%bd = %inf, %bk = %kbig) -> (f32, i32) {
    %d = scf.for %j = %c0 to %ddim step %c1 iter_args(%acc = %zero) -> (f32) {
      %xv = cake.load %x[%i, %j] masked : !cake.tensor<[N, D], f32> -> f32
      %cv = cake.load %c[%k, %j] : !cake.tensor<[K, D], f32> -> f32
      %diff = arith.subf %xv, %cv : f32
      %acc2 = math.fma %diff, %diff, %acc : f32
      scf.yield %acc2 : f32
    }
    %k32 = arith.index_cast %k : index to i32
    %closer = arith.cmpf olt, %d, %bd : f32
    %nd = arith.select %closer, %d, %bd : f32
    %nk = arith.select %closer, %k32, %bk : i32
    scf.yield %nd, %nk : f32, i32
  }
  %md, %mk = cake.warp_arg_reduce argmin %best#0, %best#1 : f32, i32
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %mk, %idx[%i] masked : i32, !cake.tensor<[N], i32>
    cake.store %md, %dist[%i] masked : f32, !cake.tensor<[N], f32>
  }
  cake.return
}
