// Tunable seed of examples/softmax.mlir: row softmax, one warp per row. WARPS rows per block
// (block = 32 * WARPS threads), VEC f32 lanes per access (the manifest then requires N % VEC == 0).
cake.kernel @softmax(%x: !cake.tensor<[M, N], f32> {cake.name = "x"},
                     %y: !cake.tensor<[M, N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: {{32 * WARPS}}>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv {{WARPS}})>} {
  %cvec = arith.constant {{VEC}} : index
  %cwarps = arith.constant {{WARPS}} : index
  %cstride = arith.constant {{32 * VEC}} : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %n = cake.problem_size "N"
  %b = cake.block_id x
  %w = cake.warp_id
  %lane = cake.lane_id
  %r0 = arith.muli %b, %cwarps : index
  %row = arith.addi %r0, %w : index
  %start = arith.muli %lane, %cvec : index

  %lmax = scf.for %j = %start to %n step %cstride iter_args(%m = %ninf) -> (f32) {
    %v = cake.load %x[%row, %j] masked pad(%ninf : f32) : !cake.tensor<[M, N], f32> -> vector<{{VEC}}xf32>
    %vm = vector.reduction <maximumf>, %v : vector<{{VEC}}xf32> into f32
    %m2 = arith.maximumf %m, %vm : f32
    scf.yield %m2 : f32
  }
  %max = cake.warp_reduce max %lmax : f32

  %maxv = vector.broadcast %max : f32 to vector<{{VEC}}xf32>
  %lsum = scf.for %j = %start to %n step %cstride iter_args(%s = %zero) -> (f32) {
    %v = cake.load %x[%row, %j] masked pad(%ninf : f32) : !cake.tensor<[M, N], f32> -> vector<{{VEC}}xf32>
    %d = arith.subf %v, %maxv : vector<{{VEC}}xf32>
    %e = math.exp %d : vector<{{VEC}}xf32>
    %es = vector.reduction <add>, %e : vector<{{VEC}}xf32> into f32
    %s2 = arith.addf %s, %es : f32
    scf.yield %s2 : f32
  }
  %sum = cake.warp_reduce sum %lsum : f32

  %one = arith.constant 1.0 : f32
  %rcp = arith.divf %one, %sum : f32
  %rcpv = vector.broadcast %rcp : f32 to vector<{{VEC}}xf32>
  scf.for %j = %start to %n step %cstride {
    %v = cake.load %x[%row, %j] masked pad(%ninf : f32) : !cake.tensor<[M, N], f32> -> vector<{{VEC}}xf32>
    %d = arith.subf %v, %maxv : vector<{{VEC}}xf32>
    %e = math.exp %d : vector<{{VEC}}xf32>
    %p = arith.mulf %e, %rcpv : vector<{{VEC}}xf32>
    cake.store %p, %y[%row, %j] masked : vector<{{VEC}}xf32>, !cake.tensor<[M, N], f32>
  }
  cake.return
}
