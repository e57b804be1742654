// RUN: cake-opt %s --cake-verify -verify-diagnostics=only-expected -o /dev/null
// Hand-seeded TMA mutant of tma_multicast (multicast mask 5 names rank 2 of a 2-block cluster),
// caught as tma.multicast-mask.

cake.kernel @tma_multicast(
    %x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, 32], f32, box [16, 32]> {cake.name = "tx", cake.describes = "x"},
    %y: !cake.tensor<[M, 64], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M"], grid = affine_map<()[m] -> ((m ceildiv 32) * 2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %cluster = cake.cluster_id x
  %row0 = arith.muli %cluster, %c32 : index
  %buf = cake.alloc_smem : !cake.smem<2x16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %first = arith.cmpi eq, %tid, %c0 : index
  scf.if %first {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  // Both blocks' barriers exist before either block's copy can complete on them.
  cake.cluster_barrier
  scf.if %first {
    cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 4096 : !cake.mbarriers<1>
    %half = arith.muli %rank, %c16 : index
    %rows = arith.addi %row0, %half : index
    // expected-error @+1 {{[tma.multicast-mask]}}
    cake.tma.load %tx[%rows, %c0], %buf[%rank], %bar[%c0] multicast %c5
        : !cake.tma<[M, 32], f32, box [16, 32]>, !cake.smem<2x16x32xf32>, !cake.mbarriers<1>
  }
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  // 128 threads x 4 floats: one row of 32 per 8 threads, 16 rows a pass, two passes.
  %r = arith.divui %tid, %c8 : index
  %c = arith.remui %tid, %c8 : index
  %col = arith.muli %c, %c4 : index
  %ycol0 = arith.muli %rank, %c32 : index
  %ycol = arith.addi %ycol0, %col : index
  scf.for %h = %c0 to %c2 step %c1 {
    %v = cake.load %buf[%h, %r, %col] : !cake.smem<2x16x32xf32> -> vector<4xf32>
    %hr = arith.muli %h, %c16 : index
    %yrow0 = arith.addi %row0, %hr : index
    %yrow = arith.addi %yrow0, %r : index
    cake.store %v, %y[%yrow, %ycol] masked : vector<4xf32>, !cake.tensor<[M, 64], f32>
  }
  // Neither block exits while its peer's copy into it may still be in flight.
  cake.cluster_barrier
  cake.return
}
