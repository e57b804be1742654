// CORPUS: verdict=correct class=named-barrier
// GPU: none (correct)
// WHY: one named barrier over both consumer warpgroups (256 threads): slower but correct.
// SIZES: R=100000
// H200: ok, output identical to wg_reduce_barrier_per_warpgroup (seed 7)

cake.kernel @wg_reduce_one_barrier_both_groups(
    %x: !cake.tensor<[R, 512], f32> {cake.name = "x"},
    %y: !cake.tensor<[R], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["R"],
                grid = affine_map<()[r] -> (r ceildiv 2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c384 = arith.constant 384 : index
  %scratch = cake.alloc_smem : !cake.smem<2x4xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  cake.warp_roles {
    cake.role "io" warps [0, 4) {
    }
    cake.role "reduce" warps [4, 12) {
      // Warpgroup g (1 or 2) sums row 2 b + g - 1: each warp reduces 128 elements, warp sums go
      // through scratch[g - 1], one barrier per warpgroup.
      %wg = cake.warpgroup_id
      %g = arith.subi %wg, %c1 : index
      %r2 = arith.muli %bid, %c2 : index
      %row = arith.addi %r2, %g : index
      %warp = cake.warp_id
      %wq = arith.remui %warp, %c4 : index
      %lt = arith.remui %tid, %c128 : index
      %v0 = cake.load %x[%row, %lt] masked : !cake.tensor<[R, 512], f32> -> f32
      %c1a = arith.addi %lt, %c128 : index
      %v1 = cake.load %x[%row, %c1a] masked : !cake.tensor<[R, 512], f32> -> f32
      %c2a = arith.addi %lt, %c256 : index
      %v2 = cake.load %x[%row, %c2a] masked : !cake.tensor<[R, 512], f32> -> f32
      %c3a = arith.addi %lt, %c384 : index
      %v3 = cake.load %x[%row, %c3a] masked : !cake.tensor<[R, 512], f32> -> f32
      %s01 = arith.addf %v0, %v1 : f32
      %s23 = arith.addf %v2, %v3 : f32
      %s = arith.addf %s01, %s23 : f32
      %ws = cake.warp_reduce sum %s : f32
      %lane = cake.lane_id
      %l0 = arith.cmpi eq, %lane, %c0 : index
      scf.if %l0 {
        cake.store %ws, %scratch[%g, %wq] : f32, !cake.smem<2x4xf32>
      }
      cake.named_barrier 1, threads 256
      %w0 = arith.cmpi eq, %wq, %c0 : index
      %first = arith.andi %w0, %l0 : i1
      scf.if %first {
        %p = cake.load %scratch[%g, %c0] : !cake.smem<2x4xf32> -> vector<4xf32>
        %t = vector.reduction <add>, %p : vector<4xf32> into f32
        cake.store %t, %y[%row] masked : f32, !cake.tensor<[R], f32>
      }
    }
  }
  cake.return
}
