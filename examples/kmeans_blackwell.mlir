// KMeans assignment on Blackwell (sm_100a), fp16 points and centroids in D = 128:
//   idx[b, n] = argmin_k ( |c_bk|^2 - 2 x_bn . c_bk )
// A block of 128 threads owns 128 points of one batch (thread t: point t, the tensor-memory lane
// t). Thread 0 copies the point tile once (TMA, two 64-wide 128-byte-swizzled halves of D), then
// for each tile of 128 centroids their two halves, and issues the eight m128n128k16 tcgen05 MMAs
// of x . c^T into tensor memory (the first overwrites), committed to an mbarrier. Every thread
// then reads its row of dot products (tcgen05.ld, 4 columns at a time), adds |c|^2 (global, +inf
// past K) and folds them into its running argmin; a block barrier keeps the next tile's MMAs
// from overwriting columns still being read. TMA zero-fills ragged tiles; rows past N are not
// stored. The protocol in its simplest form (one stage, no warp roles), not a tuned kernel;
// compile-only here (no B200 on this machine).
//
// REQUIRES: ptxas
// RUN: cake-opt %s --cake-verify | FileCheck %s --check-prefix=VERIFY
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-translate %s --emit=cubin -o %t.cubin --manifest %t.json --ptxas-log %t.log
// RUN: FileCheck %s --check-prefix=PTXAS < %t.log
// RUN: %if cuobjdump %{ %cuobjdump -sass %t.cubin | FileCheck %s --check-prefix=SASS %}
// VERIFY: cake.kernel @kmeans_blackwell
// PTX: .target sm_100a
// PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: tcgen05.mma.cta_group::1.kind::f16
// PTX: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// PTX: tcgen05.ld.sync.aligned.32x32b.x4.b32
// PTXAS: Compiling entry function 'kmeans_blackwell' for 'sm_100a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// SASS-COUNT-8: UTCHMMA gdesc[{{.*}}], gdesc[{{.*}}], tmem[{{.*}}]
// SASS: UTCBAR

cake.kernel @kmeans_blackwell(
    %x: !cake.tensor<[B, N, 128], f16> {cake.name = "x"},
    %tx: !cake.tma<[B, N, 128], f16, box [1, 128, 64], swizzle = 128> {cake.name = "tx", cake.describes = "x"},
    %c: !cake.tensor<[B, K, 128], f16> {cake.name = "c"},
    %tc: !cake.tma<[B, K, 128], f16, box [1, 128, 64], swizzle = 128> {cake.name = "tc", cake.describes = "c"},
    %csq: !cake.tensor<[B, K], f32> {cake.name = "csq"},
    %idx: !cake.tensor<[B, N], i32> {cake.name = "idx"})
    attributes {target = "sm_100a", block = array<i64: 128>, symbols = ["B", "N", "K"],
                grid = affine_map<()[b, n, k] -> (n ceildiv 128, b)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %true = arith.constant true
  %false = arith.constant false
  %inf = arith.constant 0x7F800000 : f32
  %mtwo = arith.constant -2.0 : f32
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c128 : index
  %kbig = arith.index_cast %kdim : index to i32
  %bx = cake.block_id x
  %b = cake.block_id y
  %m0 = arith.muli %bx, %c128 : index
  %tid = cake.thread_id x
  %leader = arith.cmpi eq, %tid, %c0 : index

  %xbuf = cake.alloc_smem : !cake.smem<2x1x128x64xf16, swizzle = 128>
  %cbuf = cake.alloc_smem : !cake.smem<2x1x128x64xf16, swizzle = 128>
  // 0: the point tile has landed; 1: a centroid tile has landed; 2: its MMAs have completed.
  %bars = cake.mbarrier.alloc : !cake.mbarriers<3>
  scf.if %leader {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<3>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<3>
    cake.mbarrier.init %bars[%c2], count 1 : !cake.mbarriers<3>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %acc = cake.tmem.alloc : !cake.tmem<128x128xf32>
  scf.if %leader {
    cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 32768 : !cake.mbarriers<3>
    cake.tma.load %tx[%b, %m0, %c0], %xbuf[%c0], %bars[%c0]
        : !cake.tma<[B, N, 128], f16, box [1, 128, 64], swizzle = 128>,
          !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.mbarriers<3>
    cake.tma.load %tx[%b, %m0, %c64], %xbuf[%c1], %bars[%c0]
        : !cake.tma<[B, N, 128], f16, box [1, 128, 64], swizzle = 128>,
          !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.mbarriers<3>
  }
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<3>

  %best:2 = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%bs = %inf, %bk = %kbig) -> (f32, i32) {
    %k0 = arith.muli %kt, %c128 : index
    scf.if %leader {
      cake.mbarrier.arrive_expect_tx %bars[%c1], bytes 32768 : !cake.mbarriers<3>
      cake.tma.load %tc[%b, %k0, %c0], %cbuf[%c0], %bars[%c1]
          : !cake.tma<[B, K, 128], f16, box [1, 128, 64], swizzle = 128>,
            !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.mbarriers<3>
      cake.tma.load %tc[%b, %k0, %c64], %cbuf[%c1], %bars[%c1]
          : !cake.tma<[B, K, 128], f16, box [1, 128, 64], swizzle = 128>,
            !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.mbarriers<3>
    }
    cake.mbarrier.wait %bars[%c1], %kt : !cake.mbarriers<3>
    scf.if %leader {
      cake.tcgen05.mma %xbuf[%c0, %c0, %c0, %c0], %cbuf[%c0, %c0, %c0, %c0], %acc, accumulate %false
          : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.tmem<128x128xf32>
      cake.tcgen05.mma %xbuf[%c0, %c0, %c0, %c16], %cbuf[%c0, %c0, %c0, %c16], %acc, accumulate %true
          : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.tmem<128x128xf32>
      cake.tcgen05.mma %xbuf[%c0, %c0, %c0, %c32], %cbuf[%c0, %c0, %c0, %c32], %acc, accumulate %true
          : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.tmem<128x128xf32>
      cake.tcgen05.mma %xbuf[%c0, %c0, %c0, %c48], %cbuf[%c0, %c0, %c0, %c48], %acc, accumulate %true
          : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.tmem<128x128xf32>
      cake.tcgen05.mma %xbuf[%c1, %c0, %c0, %c0], %cbuf[%c1, %c0, %c0, %c0], %acc, accumulate %true
          : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.tmem<128x128xf32>
      cake.tcgen05.mma %xbuf[%c1, %c0, %c0, %c16], %cbuf[%c1, %c0, %c0, %c16], %acc, accumulate %true
          : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.tmem<128x128xf32>
      cake.tcgen05.mma %xbuf[%c1, %c0, %c0, %c32], %cbuf[%c1, %c0, %c0, %c32], %acc, accumulate %true
          : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.tmem<128x128xf32>
      cake.tcgen05.mma %xbuf[%c1, %c0, %c0, %c48], %cbuf[%c1, %c0, %c0, %c48], %acc, accumulate %true
          : !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.smem<2x1x128x64xf16, swizzle = 128>, !cake.tmem<128x128xf32>
      cake.tcgen05.commit %bars[%c2] : !cake.mbarriers<3>
    }
    cake.mbarrier.wait %bars[%c2], %kt : !cake.mbarriers<3>
    // This thread's row: 128 dot products, 4 at a time, folded with |c|^2 into the argmin
    // (strict <, increasing k: ties keep the smaller index).
    %fold:2 = scf.for %j = %c0 to %c128 step %c4 iter_args(%s0 = %bs, %i0 = %bk) -> (f32, i32) {
      %dots = cake.tmem.load %acc[%j] : !cake.tmem<128x128xf32> -> vector<4xf32>
      %kj = arith.addi %k0, %j : index
      %r:2 = scf.for %e = %c0 to %c4 step %c1 iter_args(%s1 = %s0, %i1 = %i0) -> (f32, i32) {
        %k = arith.addi %kj, %e : index
        %q = cake.load %csq[%b, %k] masked pad(%inf : f32) : !cake.tensor<[B, K], f32> -> f32
        %dot = vector.extract %dots[%e] : f32 from vector<4xf32>
        %s = math.fma %mtwo, %dot, %q : f32
        %ki = arith.index_cast %k : index to i32
        %lt = arith.cmpf olt, %s, %s1 : f32
        %ns = arith.select %lt, %s, %s1 : f32
        %ni = arith.select %lt, %ki, %i1 : i32
        scf.yield %ns, %ni : f32, i32
      }
      scf.yield %r#0, %r#1 : f32, i32
    }
    // Every row is read before the next tile's MMAs overwrite the columns.
    cake.barrier
    scf.yield %fold#0, %fold#1 : f32, i32
  }
  %row = arith.addi %m0, %tid : index
  cake.store %best#1, %idx[%b, %row] masked : i32, !cake.tensor<[B, N], i32>
  cake.tmem.dealloc %acc : !cake.tmem<128x128xf32>
  cake.return
}
