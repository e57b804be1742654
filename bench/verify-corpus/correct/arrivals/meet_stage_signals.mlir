// CORPUS: verdict=correct class=arrivals
// GPU: none (correct)
// WHY: the staging role's 128 threads arrive on barrier 0 (count 128); the using role only waits.
// SIZES: M=5000
// H200: ok (ran; every output element written)

cake.kernel @meet_stage_signals(
    %x: !cake.tensor<[M, 128], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M"],
                grid = affine_map<()[m] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %tile = cake.alloc_smem : !cake.smem<128xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 128 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "stage" warps [0, 4) {
      %v = cake.load %x[%row, %tid] masked : !cake.tensor<[M, 128], f32> -> f32
      %e = math.exp %v : f32
      cake.store %e, %tile[%tid] : f32, !cake.smem<128xf32>
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>
    }
    cake.role "use" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      %mirror = arith.subi %c127, %u : index
      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<2>
      %a = cake.load %tile[%u] : !cake.smem<128xf32> -> f32
      %b = cake.load %tile[%mirror] : !cake.smem<128xf32> -> f32
      %s = arith.addf %a, %b : f32
      cake.store %s, %y[%row, %u] masked : f32, !cake.tensor<[M, 128], f32>
    }
  }
  cake.return
}
