// CORPUS: verdict=buggy class=smem-bounds
// GPU: wrong result: warps 8..15 write past the 8-float scratch buffer and their maxima are never read
// WHY: the per-warp scratch is sized for 8 warps (a 256-thread version) in a 512-thread block.
// SIZES: R=20000
// H200: wrong result vs row_max_scratch_per_warp, seed 7: 9945 elements of 'y' differ, rel L2 0.002

cake.kernel @row_max_scratch_for_8_warps(
    %x: !cake.tensor<[R, 2048], f32> {cake.name = "x"},
    %y: !cake.tensor<[R], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 512>, symbols = ["R"],
                grid = affine_map<()[r] -> (r)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %c1536 = arith.constant 1536 : index
  %scratch = cake.alloc_smem : !cake.smem<8xf32>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %warp = cake.warp_id
  %lane = cake.lane_id
  %a = cake.load %x[%row, %tid] masked : !cake.tensor<[R, 2048], f32> -> f32
  %i1 = arith.addi %tid, %c512 : index
  %b = cake.load %x[%row, %i1] masked : !cake.tensor<[R, 2048], f32> -> f32
  %i2 = arith.addi %tid, %c1024 : index
  %c = cake.load %x[%row, %i2] masked : !cake.tensor<[R, 2048], f32> -> f32
  %i3 = arith.addi %tid, %c1536 : index
  %d = cake.load %x[%row, %i3] masked : !cake.tensor<[R, 2048], f32> -> f32
  %ab = arith.maximumf %a, %b : f32
  %cd = arith.maximumf %c, %d : f32
  %m = arith.maximumf %ab, %cd : f32
  %wm = cake.warp_reduce max %m : f32
  %l0 = arith.cmpi eq, %lane, %c0 : index
  scf.if %l0 {
    cake.store %wm, %scratch[%warp] : f32, !cake.smem<8xf32>
  }
  cake.barrier
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    %p0 = cake.load %scratch[%c0] : !cake.smem<8xf32> -> vector<4xf32>
    %p1 = cake.load %scratch[%c4] : !cake.smem<8xf32> -> vector<4xf32>
    %q = arith.maximumf %p0, %p1 : vector<4xf32>
    %best = vector.reduction <maximumf>, %q : vector<4xf32> into f32
    cake.store %best, %y[%row] masked : f32, !cake.tensor<[R], f32>
  }
  cake.return
}
