// CORPUS: verdict=buggy class=shape
// GPU: wrong-result-for-some-shapes: N=100 adds exp(0 - max) for each of the 28 padded lanes to the
//      sum (and a 0 to the max of all-negative rows); N=128 works
// WHY: 32-wide chunks with masked loads, but the pad is the default 0 instead of -inf.
// SIZES: M=100000,N=100
// H200: wrong result vs chunked_softmax_ninf_pad, seed 7: 10000000 elements of 'y' differ, rel L2 0.19

cake.kernel @chunked_softmax_zero_pad(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 8)>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n = cake.problem_size "N"
  %bid = cake.block_id x
  %w = cake.warp_id
  %lane = cake.lane_id
  %r0 = arith.muli %bid, %c8 : index
  %row = arith.addi %r0, %w : index
  %nr = arith.ceildivui %n, %c32 : index
  %nround = arith.muli %nr, %c32 : index
  %lmax = scf.for %j0 = %c0 to %nround step %c32 iter_args(%m = %ninf) -> (f32) {
    %j = arith.addi %j0, %lane : index
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %m2 = arith.maximumf %m, %v : f32
    scf.yield %m2 : f32
  }
  %max = cake.warp_reduce max %lmax : f32
  %lsum = scf.for %j0 = %c0 to %nround step %c32 iter_args(%s = %zero) -> (f32) {
    %j = arith.addi %j0, %lane : index
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %d = arith.subf %v, %max : f32
    %e = math.exp %d : f32
    %s2 = arith.addf %s, %e : f32
    scf.yield %s2 : f32
  }
  %sum = cake.warp_reduce sum %lsum : f32
  %rcp = arith.divf %one, %sum : f32
  scf.for %j0 = %c0 to %nround step %c32 {
    %j = arith.addi %j0, %lane : index
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %d = arith.subf %v, %max : f32
    %e = math.exp %d : f32
    %p = arith.mulf %e, %rcp : f32
    cake.store %p, %y[%row, %j] masked : f32, !cake.tensor<[M, N], f32>
  }
  cake.return
}
