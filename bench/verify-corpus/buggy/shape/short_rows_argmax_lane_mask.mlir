// CORPUS: verdict=buggy class=shape
// GPU: wrong-result-for-some-shapes: N=12 runs warp_arg_reduce in a partial warp (undefined); N >= 32 works
// WHY: the arg-reduction is guarded by 'lane < N'.
// SIZES: M=100000,N=12
// H200: ran to completion (no correct counterpart to compare with)

cake.kernel @short_rows_argmax_lane_mask(
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
  %lbest = scf.for %j = %lane to %n step %c32 iter_args(%m = %ninf) -> (f32) {
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %m2 = arith.maximumf %m, %v : f32
    scf.yield %m2 : f32
  }
  %lane32 = arith.index_cast %lane : index to i32
  %active = arith.cmpi ult, %lane, %n : index
  scf.if %active {
    %best, %arg = cake.warp_arg_reduce argmax %lbest, %lane32 : f32, i32
    %l0 = arith.cmpi eq, %lane, %c0 : index
    scf.if %l0 {
      %argf = arith.sitofp %arg : i32 to f32
      cake.store %argf, %y[%row, %c0] masked : f32, !cake.tensor<[M, N], f32>
    }
  }
  cake.return
}
