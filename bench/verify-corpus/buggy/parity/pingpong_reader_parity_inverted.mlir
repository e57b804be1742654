// CORPUS: verdict=buggy class=parity
// GPU: race (wrong result): the reader's first wait passes on the fresh barrier, before the first write
// WHY: the reader waits on 'full' with the writer's inverted parity.
// SIZES: R=4096
// H200: hang (no exit within 6 s; killed)

cake.kernel @pingpong_reader_parity_inverted(
    %x: !cake.tensor<[R, 256], f32> {cake.name = "x"},
    %y: !cake.tensor<[R, 256], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["R"],
                grid = affine_map<()[r] -> (r ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %slot = cake.alloc_smem : !cake.smem<128xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %r0 = arith.muli %bid, %c64 : index
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    // 0: full (128 writer arrivals), 1: empty (128 reader arrivals)
    cake.mbarrier.init %bars[%c0], count 128 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "writer" warps [0, 4) {
      scf.for %i = %c0 to %c64 step %c1 {
        %row = arith.addi %r0, %i : index
        scf.for %h = %c0 to %c2 step %c1 {
          %n2 = arith.muli %i, %c2 : index
          %n = arith.addi %n2, %h : index
          %par = arith.remui %n, %c2 : index
          %free = arith.xori %par, %c1 : index
          cake.mbarrier.wait %bars[%c1], %free : !cake.mbarriers<2>
          %hc = arith.muli %h, %c128 : index
          %col = arith.addi %hc, %tid : index
          %v = cake.load %x[%row, %col] masked : !cake.tensor<[R, 256], f32> -> f32
          %sq = arith.mulf %v, %v : f32
          cake.store %sq, %slot[%tid] : f32, !cake.smem<128xf32>
          cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>
        }
      }
    }
    cake.role "reader" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      scf.for %i = %c0 to %c64 step %c1 {
        %row = arith.addi %r0, %i : index
        scf.for %h = %c0 to %c2 step %c1 {
          %n2 = arith.muli %i, %c2 : index
          %n = arith.addi %n2, %h : index
          %par = arith.remui %n, %c2 : index
          %free = arith.xori %par, %c1 : index
          cake.mbarrier.wait %bars[%c0], %free : !cake.mbarriers<2>
          %v = cake.load %slot[%u] : !cake.smem<128xf32> -> f32
          cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>
          %hc = arith.muli %h, %c128 : index
          %col = arith.addi %hc, %u : index
          cake.store %v, %y[%row, %col] masked : f32, !cake.tensor<[R, 256], f32>
        }
      }
    }
  }
  cake.return
}
