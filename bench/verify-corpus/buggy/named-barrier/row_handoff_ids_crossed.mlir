// CORPUS: verdict=buggy class=named-barrier
// GPU: hang (fill waits at barrier 1 for drain, drain waits at barrier 2 for fill)
// WHY: drain uses the ids in the opposite order: 2 before its read, 1 after.
// SIZES: R=65536
// H200: hang (no exit within 6 s; killed)

cake.kernel @row_handoff_ids_crossed(
    %x: !cake.tensor<[R, 128], f32> {cake.name = "x"},
    %y: !cake.tensor<[R, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["R"],
                grid = affine_map<()[r] -> (r ceildiv 16)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %row_buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %r0 = arith.muli %bid, %c16 : index
  cake.warp_roles {
    cake.role "fill" warps [0, 4) {
      scf.for %i = %c0 to %c16 step %c1 {
        %row = arith.addi %r0, %i : index
        %v = cake.load %x[%row, %tid] masked : !cake.tensor<[R, 128], f32> -> f32
        %e = math.exp %v : f32
        cake.store %e, %row_buf[%tid] : f32, !cake.smem<128xf32>
        cake.named_barrier 1, threads 256
        cake.named_barrier 2, threads 256
      }
    }
    cake.role "drain" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      %mirror = arith.subi %c127, %u : index
      scf.for %i = %c0 to %c16 step %c1 {
        %row = arith.addi %r0, %i : index
        cake.named_barrier 2, threads 256
        %e = cake.load %row_buf[%mirror] : !cake.smem<128xf32> -> f32
        cake.named_barrier 1, threads 256
        cake.store %e, %y[%row, %u] masked : f32, !cake.tensor<[R, 128], f32>
      }
    }
  }
  cake.return
}
