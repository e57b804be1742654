// CORPUS: verdict=buggy class=race
// GPU: race (wrong result): threads read the 8 warp maxima before all warps stored them
// WHY: no barrier between the per-warp partial stores and the reads of all partials.
// SIZES: M=20000
// H200: wrong result vs block_softmax_three_barriers, seed 7: 3181568 elements of 'y' differ, 16890880 non-finite where the reference is finite, rel L2 1.1

cake.kernel @block_softmax_partials_unsynced(
    %x: !cake.tensor<[M, 1024], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, 1024], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M"],
                grid = affine_map<()[m] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %c768 = arith.constant 768 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %red = cake.alloc_smem : !cake.smem<8xf32>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %warp = cake.warp_id
  %lane = cake.lane_id
  %l0 = arith.cmpi eq, %lane, %c0 : index
  %i1 = arith.addi %tid, %c256 : index
  %i2 = arith.addi %tid, %c512 : index
  %i3 = arith.addi %tid, %c768 : index
  %v0 = cake.load %x[%row, %tid] masked : !cake.tensor<[M, 1024], f32> -> f32
  %v1 = cake.load %x[%row, %i1] masked : !cake.tensor<[M, 1024], f32> -> f32
  %v2 = cake.load %x[%row, %i2] masked : !cake.tensor<[M, 1024], f32> -> f32
  %v3 = cake.load %x[%row, %i3] masked : !cake.tensor<[M, 1024], f32> -> f32
  %m01 = arith.maximumf %v0, %v1 : f32
  %m23 = arith.maximumf %v2, %v3 : f32
  %m = arith.maximumf %m01, %m23 : f32
  %wm = cake.warp_reduce max %m : f32
  scf.if %l0 {
    cake.store %wm, %red[%warp] : f32, !cake.smem<8xf32>
  }
  %ra = cake.load %red[%c0] : !cake.smem<8xf32> -> vector<4xf32>
  %rb = cake.load %red[%c4] : !cake.smem<8xf32> -> vector<4xf32>
  %rab = arith.maximumf %ra, %rb : vector<4xf32>
  %max = vector.reduction <maximumf>, %rab : vector<4xf32> into f32
  cake.barrier
  %d0 = arith.subf %v0, %max : f32
  %e0 = math.exp %d0 : f32
  %d1 = arith.subf %v1, %max : f32
  %e1 = math.exp %d1 : f32
  %d2 = arith.subf %v2, %max : f32
  %e2 = math.exp %d2 : f32
  %d3 = arith.subf %v3, %max : f32
  %e3 = math.exp %d3 : f32
  %s01 = arith.addf %e0, %e1 : f32
  %s23 = arith.addf %e2, %e3 : f32
  %s = arith.addf %s01, %s23 : f32
  %ws = cake.warp_reduce sum %s : f32
  scf.if %l0 {
    cake.store %ws, %red[%warp] : f32, !cake.smem<8xf32>
  }
  cake.barrier
  %sa = cake.load %red[%c0] : !cake.smem<8xf32> -> vector<4xf32>
  %sb = cake.load %red[%c4] : !cake.smem<8xf32> -> vector<4xf32>
  %sab = arith.addf %sa, %sb : vector<4xf32>
  %sum = vector.reduction <add>, %sab : vector<4xf32> into f32
  %rcp = arith.divf %one, %sum : f32
  %p0 = arith.mulf %e0, %rcp : f32
  cake.store %p0, %y[%row, %tid] masked : f32, !cake.tensor<[M, 1024], f32>
  %p1 = arith.mulf %e1, %rcp : f32
  cake.store %p1, %y[%row, %i1] masked : f32, !cake.tensor<[M, 1024], f32>
  %p2 = arith.mulf %e2, %rcp : f32
  cake.store %p2, %y[%row, %i2] masked : f32, !cake.tensor<[M, 1024], f32>
  %p3 = arith.mulf %e3, %rcp : f32
  cake.store %p3, %y[%row, %i3] masked : f32, !cake.tensor<[M, 1024], f32>
  cake.return
}
