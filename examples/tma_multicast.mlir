// TMA multicast across a cluster of two blocks: y[i, j] = x[i, j mod 32] for y of M x 64.
// Each cluster owns 32 rows of x. Block r of the pair copies rows [16 r, 16 r + 16) of that tile
// with `multicast 3`, so the box lands in the shared buffer of both blocks and completes on both
// blocks' barriers; each block expects the whole tile (4096 bytes) on its own barrier, waits, and
// writes the tile to its 32 columns of y. A cluster barrier publishes the barrier initialization
// before any copy, and another keeps both blocks alive until their peer's copies have landed.
//
// REQUIRES: ptxas
// RUN: cake-opt %s | cake-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-translate %s --emit=cubin -o %t.cubin --manifest %t.json
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// ROUNDTRIP: cake.tma.load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}] multicast %{{.*}} :
// ROUNDTRIP: cake.cluster_barrier
// PTX: .reqnctapercluster 2, 1, 1
// PTX: barrier.cluster.arrive.aligned
// PTX: barrier.cluster.wait.aligned
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// MANIFEST: "cluster": [
// MANIFEST-NEXT: 2,

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
    cake.tma.load %tx[%rows, %c0], %buf[%rank], %bar[%c0] multicast %c3
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
