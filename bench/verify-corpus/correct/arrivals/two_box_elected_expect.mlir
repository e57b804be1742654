// CORPUS: verdict=correct class=arrivals
// GPU: none (correct)
// WHY: one elected thread announces both boxes (4096 bytes) and issues both copies; count 1.
// SIZES: M=777
// H200: ok (ran; every output element written)

cake.kernel @two_box_elected_expect(
    %x: !cake.tensor<[M, 64], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, 64], f32, box [16, 32]> {cake.name = "tx", cake.describes = "x"},
    %y: !cake.tensor<[M, 64], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M"],
                grid = affine_map<()[m] -> (m ceildiv 16)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %buf = cake.alloc_smem : !cake.smem<2x16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %warp = cake.warp_id
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c16 : index
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %w0 = arith.cmpi eq, %warp, %c0 : index
  scf.if %w0 {
    %e = cake.elect_one
    scf.if %e {
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 4096 : !cake.mbarriers<1>
      cake.tma.load %tx[%m0, %c0], %buf[%c0], %bar[%c0]
          : !cake.tma<[M, 64], f32, box [16, 32]>, !cake.smem<2x16x32xf32>, !cake.mbarriers<1>
      cake.tma.load %tx[%m0, %c32], %buf[%c1], %bar[%c0]
          : !cake.tma<[M, 64], f32, box [16, 32]>, !cake.smem<2x16x32xf32>, !cake.mbarriers<1>
    }
  }
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %r = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %col = arith.muli %q, %c4 : index
  %gr = arith.addi %m0, %r : index
  scf.for %h = %c0 to %c2 step %c1 {
    %v = cake.load %buf[%h, %r, %col] : !cake.smem<2x16x32xf32> -> vector<4xf32>
    %v2 = arith.mulf %v, %v : vector<4xf32>
    %hc = arith.muli %h, %c32 : index
    %gc = arith.addi %hc, %col : index
    cake.store %v2, %y[%gr, %gc] masked : vector<4xf32>, !cake.tensor<[M, 64], f32>
  }
  cake.return
}
