// Written for session 36's second probe of the verifier (caught before the change).
// RUN: not cake-opt %s --cake-verify -o /dev/null 2>&1 | FileCheck %s
// CHECK: :29:12: error: 'cake.load' op [race.cross-role]
// BUG: the "scale" role (warps 2-3) computes a per-column scale, arrives on the mbarrier and only THEN stores it to scale[]: the "apply" role (warps 0-1) passes its parity-0 wait once all 64 scale threads have arrived, and thread 0 (warp 0) reads scale[0] possibly before thread 64 (warp 2) has stored it (the arrive precedes the write).
cake.kernel @col_scale(%x: !cake.tensor<[R, 64], f32> {cake.name = "x"},
                       %w: !cake.tensor<[64], f32> {cake.name = "w"},
                       %y: !cake.tensor<[R, 64], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["R"],
                grid = affine_map<()[r] -> (r ceildiv 8)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %bid = cake.block_id x
  %r0 = arith.muli %bid, %c8 : index
  %tid = cake.thread_id x
  %scale = cake.alloc_smem : !cake.smem<64xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 64 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "apply" warps [0, 2) {
      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
      %s = cake.load %scale[%tid] : !cake.smem<64xf32> -> f32
      scf.for %r = %c0 to %c8 step %c1 {
        %gr = arith.addi %r0, %r : index
        %v = cake.load %x[%gr, %tid] masked : !cake.tensor<[R, 64], f32> -> f32
        %o = arith.mulf %v, %s : f32
        cake.store %o, %y[%gr, %tid] masked : f32, !cake.tensor<[R, 64], f32>
      }
    }
    cake.role "scale" warps [2, 4) {
      %col = arith.subi %tid, %c64 : index
      %wv = cake.load %w[%col] masked : !cake.tensor<[64], f32> -> f32
      %den = arith.addf %wv, %one : f32
      %inv = arith.divf %one, %den : f32
      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>
      cake.store %inv, %scale[%col] : f32, !cake.smem<64xf32>
    }
  }
  cake.return
}
