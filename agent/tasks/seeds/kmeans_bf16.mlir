// Naive seed of the bf16 KMeans assignment: kmeans_fp16.mlir with bf16 points and centroids (the
// second task of the kmeans class; the harness's learned rules carry over between them). One warp
// per point, lanes striding over the centroids, fp32 accumulation, argmin across the warp; PPB
// points (warps) per block.
cake.kernel @kmeans_bf16(%x: !cake.tensor<[B, N, 128], bf16> {cake.name = "x"},
                         %c: !cake.tensor<[B, K, 128], bf16> {cake.name = "c"},
                         %csq: !cake.tensor<[B, K], f32> {cake.name = "csq"},
                         %idx: !cake.tensor<[B, N], i32> {cake.name = "idx"})
    attributes {target = "sm_90a", block = array<i64: {{32 * PPB}}>, symbols = ["B", "N", "K"],
                grid = affine_map<()[b, n, k] -> (n ceildiv {{PPB}}, b)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %cppb = arith.constant {{PPB}} : index
  %inf = arith.constant 0x7F800000 : f32
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %kdim = cake.problem_size "K"
  %bx = cake.block_id x
  %b = cake.block_id y
  %w = cake.warp_id
  %lane = cake.lane_id
  %p0 = arith.muli %bx, %cppb : index
  %i = arith.addi %p0, %w : index
  %kbig = arith.index_cast %kdim : index to i32

  %best:2 = scf.for %k = %lane to %kdim step %c32 iter_args(%bs = %inf, %bk = %kbig) -> (f32, i32) {
    %dot = scf.for %j = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {
      %xh = cake.load %x[%b, %i, %j] masked : !cake.tensor<[B, N, 128], bf16> -> bf16
      %ch = cake.load %c[%b, %k, %j] : !cake.tensor<[B, K, 128], bf16> -> bf16
      %xv = arith.extf %xh : bf16 to f32
      %cv = arith.extf %ch : bf16 to f32
      %acc2 = math.fma %xv, %cv, %acc : f32
      scf.yield %acc2 : f32
    }
    %sq = cake.load %csq[%b, %k] : !cake.tensor<[B, K], f32> -> f32
    %twodot = arith.mulf %two, %dot : f32
    %s = arith.subf %sq, %twodot : f32
    %k32 = arith.index_cast %k : index to i32
    %closer = arith.cmpf olt, %s, %bs : f32
    %ns = arith.select %closer, %s, %bs : f32
    %nk = arith.select %closer, %k32, %bk : i32
    scf.yield %ns, %nk : f32, i32
  }
  %ms, %mk = cake.warp_arg_reduce argmin %best#0, %best#1 : f32, i32
  %first = arith.cmpi eq, %lane, %c0 : index
  scf.if %first {
    cake.store %mk, %idx[%b, %i] masked : i32, !cake.tensor<[B, N], i32>
  }
  cake.return
}
