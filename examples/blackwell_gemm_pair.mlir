// Blackwell CTA-pair GEMM (sm_100a, tcgen05 cta_group::2), bf16 in, f32 out:
// C[M, N] = A[M, K] * B[N, K]^T, both operands K-major. The host passes a (M x K, bf16) with its
// TMA descriptor ta (box 128 x 64), b (N x K, bf16) with tb (box 128 x 64), c (M x N, f32,
// written), then M, N, K (i64); the grid is (2 * (N / 256), M / 256) rounded up, in clusters of
// 2 x 1 x 1 blocks of 128 threads.
// Each cluster is one CTA pair (ranks 0 and 1 along x) and computes a 256x256 tile of C in a
// pair accumulator: rank r holds rows 128 r to 128 r + 127 of the tile in its own tensor memory.
// Per 64-wide k tile, thread 0 of each block copies (TMA) its own 128 rows of A and its own half of
// B (rows 128 r to 128 r + 127 of the tile's 256) into its own buffers, completing on its own
// mbarrier; every block waits on it, then a cluster barrier makes both blocks' operands visible
// to the even block, whose thread 0 issues four m256n256k16 pair MMAs (the odd block's op does
// nothing) and a pair commit that arrives on barrier 1 of both blocks. Every block waits on its
// own barrier 1 before its next copy reuses the buffers. The epilogue: each thread reads its row
// of its block's half of the accumulator (tcgen05.ld, 4 columns at a time) and stores it masked
// (rank 1 stores rows 128-255 of the pair's tile). The barrier initialization is published
// cluster-wide (the pair commit arrives in the peer) before the first MMA, and a last cluster
// barrier keeps either block from freeing the pair allocation before both have read their
// halves. One stage: the protocol in its simplest form, not a tuned kernel.
// Compile-only here (no B200 on this machine).
//
// REQUIRES: ptxas
// RUN: cake-opt %s --cake-verify | FileCheck %s --check-prefix=VERIFY
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-translate %s --emit=cubin -o %t.cubin --manifest %t.json --ptxas-log %t.log
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: FileCheck %s --check-prefix=PTXAS < %t.log
// RUN: %if cuobjdump %{ %cuobjdump -sass %t.cubin | FileCheck %s --check-prefix=SASS %}
// VERIFY: cake.kernel @blackwell_gemm_pair
// PTX: .target sm_100a
// PTX: .reqnctapercluster 2, 1, 1
// PTX: fence.mbarrier_init.release.cluster
// PTX: barrier.cluster.arrive.aligned
// PTX: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32
// PTX: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: tcgen05.mma.cta_group::2.kind::f16
// PTX: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// PTX: tcgen05.ld.sync.aligned.32x32b.x4.b32
// PTX: tcgen05.dealloc.cta_group::2.sync.aligned.b32
// MANIFEST: "cluster": [
// MANIFEST-NEXT: 2,
// MANIFEST: "target": "sm_100a"
// PTXAS: Compiling entry function 'blackwell_gemm_pair' for 'sm_100a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// The pair allocation, four 2-SM UTC MMAs (the unrolled k steps), the multicast commit:
// SASS: UTCATOMSWS.2CTA.FIND_AND_SET.ALIGN
// SASS-COUNT-4: UTCHMMA.2CTA gdesc[{{.*}}], gdesc[{{.*}}], tmem[{{.*}}]
// SASS: UTCBAR.2CTA.MULTICAST

cake.kernel @blackwell_gemm_pair(
    %a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"},
    %b: !cake.tensor<[N, K], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_100a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> ((n ceildiv 256) * 2, m ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %true = arith.constant true
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c64 : index
  // The pair: cluster x along N, block y along M; rank r owns rows 128 r of the 256-row tile
  // and rows 128 r of the tile's 256 rows of B.
  %rank = cake.cluster_block_id x
  %pn = cake.cluster_id x
  %bm = cake.block_id y
  %half = arith.muli %rank, %c128 : index
  %pm0 = arith.muli %bm, %c256 : index
  %m0 = arith.addi %pm0, %half : index
  %n0 = arith.muli %pn, %c256 : index
  %bn0 = arith.addi %n0, %half : index
  %tid = cake.thread_id x
  %leader = arith.cmpi eq, %tid, %c0 : index

  %abuf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  // 0: this block's tiles have landed; 1: the pair's MMAs that read them have completed (the
  // even block's pair commit arrives on barrier 1 of both blocks).
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  scf.if %leader {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  // Both blocks' barriers exist before the peer's pair commit can arrive on them.
  cake.cluster_barrier
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>

  scf.for %kt = %c0 to %ktiles step %c1 {
    %k0 = arith.muli %kt, %c64 : index
    scf.if %leader {
      // 128 x 64 bf16 of A and of B.
      cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 32768 : !cake.mbarriers<2>
      cake.tma.load %ta[%m0, %k0], %abuf[], %bars[%c0]
          : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>,
            !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<2>
      cake.tma.load %tb[%bn0, %k0], %bbuf[], %bars[%c0]
          : !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128>,
            !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<2>
    }
    cake.mbarrier.wait %bars[%c0], %kt : !cake.mbarriers<2>
    // Both blocks' operands have landed before the even block's MMAs read them.
    cake.cluster_barrier
    scf.if %leader {
      %more = arith.cmpi ugt, %kt, %c0 : index
      cake.tcgen05.mma %abuf[%c0, %c0], %bbuf[%c0, %c0], %acc, accumulate %more
          : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>,
            !cake.tmem<128x256xf32, pair>
      cake.tcgen05.mma %abuf[%c0, %c16], %bbuf[%c0, %c16], %acc, accumulate %true
          : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>,
            !cake.tmem<128x256xf32, pair>
      cake.tcgen05.mma %abuf[%c0, %c32], %bbuf[%c0, %c32], %acc, accumulate %true
          : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>,
            !cake.tmem<128x256xf32, pair>
      cake.tcgen05.mma %abuf[%c0, %c48], %bbuf[%c0, %c48], %acc, accumulate %true
          : !cake.smem<128x64xbf16, swizzle = 128>, !cake.smem<128x64xbf16, swizzle = 128>,
            !cake.tmem<128x256xf32, pair>
      cake.tcgen05.commit %bars[%c1] pair : !cake.mbarriers<2>
    }
    // The pair's MMAs have read both blocks' tiles (the next copies may overwrite them) and,
    // after the last tile, written both halves of the accumulator.
    cake.mbarrier.wait %bars[%c1], %kt : !cake.mbarriers<2>
    // No block barrier here (unlike blackwell_gemm.mlir): barrier 1's next phase, and barrier
    // 0's phase after next, come only after the next tile's cluster barrier, which every thread
    // reaches only after its waits here, so no thread's parity check can fall behind by two.
  }

  // Thread t holds row t of its block's half of the tile.
  %row = arith.addi %m0, %tid : index
  scf.for %j = %c0 to %c256 step %c4 {
    %v = cake.tmem.load %acc[%j] : !cake.tmem<128x256xf32, pair> -> vector<4xf32>
    %col = arith.addi %n0, %j : index
    cake.store %v, %c[%row, %col] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  }
  // A pair allocation is freed by both blocks together: neither frees before both have read
  // their halves (the peer handshake CUTLASS does before a 2-SM free).
  cake.cluster_barrier
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32, pair>
  cake.return
}
