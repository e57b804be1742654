// CORPUS: verdict=correct class=race
// GPU: none (correct)
// WHY: the staging role stores, then arrives; the reader waits, then reads.
// SIZES: M=5000
// H200: ok (ran; every output element written)

cake.kernel @roles_write_then_arrive(
    %x: !cake.tensor<[M, 128], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M"],
                grid = affine_map<()[m] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %tile = cake.alloc_smem : !cake.smem<128xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 128 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "stage" warps [0, 4) {
      %v = cake.load %x[%row, %tid] masked : !cake.tensor<[M, 128], f32> -> f32
      %e = math.tanh %v : f32
      cake.store %e, %tile[%tid] : f32, !cake.smem<128xf32>
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
    }
    cake.role "use" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      %mirror = arith.subi %c127, %u : index
      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
      %a = cake.load %tile[%mirror] : !cake.smem<128xf32> -> f32
      cake.store %a, %y[%row, %u] masked : f32, !cake.tensor<[M, 128], f32>
    }
  }
  cake.return
}
