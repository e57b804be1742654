// Written for session 36's second probe of the verifier (caught before the change).
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :21:5: error: 'cake.mbarrier.init' op [mbarrier.arrival-count]
// BUG: the "full" mbarrier is initialised with count 1, but all 128 threads of the 4 writer warps (warps 0-3) arrive after their stores: phase 0 completes at the FIRST arrival, so the reader warp (warp 4) passes its parity-0 wait and reads buf[] while e.g. thread 127 (warp 3) has not stored buf[127] yet (and extra arrivals complete later phases).
cake.kernel @gather_sum(%x: !cake.tensor<[M, 128], f32> {cake.name = "x"},
                        %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M"],
                grid = affine_map<()[m] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %row = cake.block_id x
  %tid = cake.thread_id x
  %buf = cake.alloc_smem : !cake.smem<128xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "writer" warps [0, 4) {
      %v = cake.load %x[%row, %tid] masked : !cake.tensor<[M, 128], f32> -> f32
      %sq = arith.mulf %v, %v : f32
      cake.store %sq, %buf[%tid] : f32, !cake.smem<128xf32>
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
    }
    cake.role "reader" warps [4, 5) {
      %lane = arith.subi %tid, %c128 : index
      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
      %s = scf.for %j = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (f32) {
        %j32 = arith.muli %j, %c32 : index
        %i = arith.addi %j32, %lane : index
        %e = cake.load %buf[%i] : !cake.smem<128xf32> -> f32
        %a2 = arith.addf %a, %e : f32
        scf.yield %a2 : f32
      }
      %t = cake.warp_reduce sum %s : f32
      %l0 = arith.cmpi eq, %lane, %c0 : index
      scf.if %l0 {
        cake.store %t, %out[%row] masked : f32, !cake.tensor<[M], f32>
      }
    }
  }
  cake.return
}
