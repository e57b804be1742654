// Blackwell CTA-pair GEMM fed by TMA multicast (sm_100a, tcgen05 cta_group::2), bf16 in, f32
// out: C[M, N] = A[M, K] * B[N, K]^T, both operands K-major. The host passes a (M x K, bf16) with
// its TMA descriptor ta (box 128 x 64), b (N x K, bf16) with tb (box 128 x 64), c (M x N, f32,
// written), then M, N, K (i64); the grid is (4 * (N / 256), M / 512) rounded up, in clusters of
// 4 x 1 x 1 blocks of 128 threads.
// Each cluster computes a 512x256 tile of C (rows 512 y, columns 256 x of the cluster) as two CTA
// pairs: ranks 0 and 1 form pair 0 (rows 0-255 of the tile), ranks 2 and 3 pair 1 (rows
// 256-511), each pair in its own pair accumulator, rank r holding rows 128 r to 128 r + 127 of
// the cluster's tile in its own tensor memory. Both pairs multiply by the same 256 rows of B, and
// rank r needs the same half of them as rank r + 2 (rows 0-127 for even ranks, 128-255 for odd).
// Per 64-wide k tile, thread 0 of each block announces 32768 bytes on its own barrier 0 (its
// A box and its B half) and copies (TMA) its own 128 rows of A; thread 0 of rank 0 copies B rows
// 0-127 with `multicast 0b0101` (landing in the B buffer and on barrier 0 of ranks 0 and 2), and
// thread 0 of rank 1 copies rows 128-255 with `multicast 0b1010` (ranks 1 and 3): B is read from
// global memory once per cluster instead of twice. Every block waits on its barrier 0, then a
// cluster barrier makes both blocks' operands of each pair visible to the pair's even block,
// whose thread 0 issues four m256n256k16 pair MMAs (the odd block's op does nothing) and a pair
// commit that arrives on barrier 1 of both blocks of its pair. Every block waits on its own
// barrier 1 (its pair's MMAs have read its buffers), then a second cluster barrier: a multicast
// sender's next copy also overwrites the B buffer of the other pair, whose MMAs must have read
// it first (cluster.multicast-overwrite). The epilogue: each thread reads its row of its block's
// quarter of the tile (tcgen05.ld, 4 columns at a time) and stores it masked. Ragged M and N:
// TMA fills rows and columns past the edges with zeros (and still delivers the box's bytes, so
// every rank copies and waits at the edge too), the stores are masked. The barrier
// initialization is published cluster-wide (the pair commits and the multicast copies arrive in
// peers) before the first copy, and a last cluster barrier keeps any block from freeing the pair
// allocation before both blocks of its pair have read their halves. One stage: the protocol in
// its simplest form, not a tuned kernel.
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
// PTX: .reqnctapercluster 4, 1, 1
// PTX: fence.mbarrier_init.release.cluster
// PTX: barrier.cluster.arrive.aligned
// PTX: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32
// PTX: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned
// The B copies' masks (0b0101 << rank) and the pair commit's (0b11 << rank):
// PTX: mov.b32 [[FIVE:%r[0-9]+]], 5;
// PTX: shl.b32 {{%r[0-9]+}}, [[FIVE]], {{%r[0-9]+}};
// PTX: mov.b16 [[THREE:%rs[0-9]+]], 3;
// PTX: shl.b16 {{%rs[0-9]+}}, [[THREE]], {{%r[0-9]+}};
// A, the block's own copy; B, multicast:
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{[^]]*}}], [{{[^]]*}}], [{{[^]]*}}];
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{{[^]]*}}], [{{[^]]*}}], [{{[^]]*}}], %rs{{[0-9]+}};
// PTX: barrier.cluster.arrive.aligned
// PTX: tcgen05.mma.cta_group::2.kind::f16
// PTX: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// PTX: tcgen05.ld.sync.aligned.32x32b.x4.b32
// PTX: tcgen05.dealloc.cta_group::2.sync.aligned.b32
// MANIFEST: "cluster": [
// MANIFEST-NEXT: 4,
// MANIFEST: "grid": [
// MANIFEST-NEXT: "ceildiv(N, 256) * 4",
// MANIFEST-NEXT: "ceildiv(M, 512)",
// MANIFEST: "target": "sm_100a"
// PTXAS: Compiling entry function 'blackwell_gemm_pair' for 'sm_100a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// The pair allocation, the A copy and the multicast B copy, four 2-SM UTC MMAs (the unrolled k
// steps), the multicast commit:
// SASS: UTCATOMSWS.2CTA.FIND_AND_SET.ALIGN
// SASS: UTMALDG.2D [{{[^]]*}}], [{{[^]]*}}] ;
// SASS: UTMALDG.2D.MULTICAST [{{[^]]*}}], [{{[^]]*}}], {{UR[0-9]+}} ;
// SASS-COUNT-4: UTCHMMA.2CTA gdesc[{{.*}}], gdesc[{{.*}}], tmem[{{.*}}]
// SASS: UTCBAR.2CTA.MULTICAST

cake.kernel @blackwell_gemm_pair(
    %a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"},
    %b: !cake.tensor<[N, K], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_100a", block = array<i64: 128>, cluster = array<i64: 4>,
                symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> ((n ceildiv 256) * 4, m ceildiv 512)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %true = arith.constant true
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c64 : index
  // The cluster: cluster x along N, block y along M in 512-row steps; rank r owns rows 128 r of
  // the cluster's 512-row tile (pair r / 2) and rows 128 (r mod 2) of the tile's 256 rows of B.
  %rank = cake.cluster_block_id x
  %pn = cake.cluster_id x
  %bm = cake.block_id y
  %mrow = arith.muli %rank, %c128 : index
  %cm0 = arith.muli %bm, %c512 : index
  %m0 = arith.addi %cm0, %mrow : index
  %odd = arith.remui %rank, %c2 : index
  %bhalf = arith.muli %odd, %c128 : index
  %n0 = arith.muli %pn, %c256 : index
  %bn0 = arith.addi %n0, %bhalf : index
  // Ranks 0 and 1 copy B for themselves and for rank + 2: mask 0b0101 << rank.
  %bsender = arith.cmpi ult, %rank, %c2 : index
  %bmask = arith.shli %c5, %rank : index
  %tid = cake.thread_id x
  %leader = arith.cmpi eq, %tid, %c0 : index

  %abuf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  // 0: this block's tiles have landed (its own A copy and its B half, multicast by rank 0 or
  // 1); 1: the pair's MMAs that read them have completed (the even block's pair commit arrives
  // on barrier 1 of both blocks of its pair).
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  scf.if %leader {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  // Every block's barriers exist before a peer's multicast copy or pair commit can arrive on
  // them.
  cake.cluster_barrier
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>

  scf.for %kt = %c0 to %ktiles step %c1 {
    %k0 = arith.muli %kt, %c64 : index
    scf.if %leader {
      // 128 x 64 bf16 of A (own copy) and of B (own half, from rank 0 or 1).
      cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 32768 : !cake.mbarriers<2>
      cake.tma.load %ta[%m0, %k0], %abuf[], %bars[%c0]
          : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>,
            !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<2>
      scf.if %bsender {
        cake.tma.load %tb[%bn0, %k0], %bbuf[], %bars[%c0] multicast %bmask
            : !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128>,
              !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<2>
      }
    }
    cake.mbarrier.wait %bars[%c0], %kt : !cake.mbarriers<2>
    // Both blocks' operands of each pair have landed before the pair's even block's MMAs read
    // them.
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
    // The pair's MMAs have read both blocks' tiles and, after the last tile, written both
    // halves of the accumulator.
    cake.mbarrier.wait %bars[%c1], %kt : !cake.mbarriers<2>
    // Every pair's MMAs have read its tiles before any block issues the next copies: rank 0's
    // and rank 1's next B copies overwrite the B buffers of ranks 2 and 3, which only pair 1's
    // commit frees (rank 0 and 1 wait on pair 0's). This barrier also keeps every thread's
    // parity checks within one phase of the barriers' (the next phases of barriers 0 and 1 come
    // only after it).
    cake.cluster_barrier
  }

  // Thread t holds row t of its block's quarter of the cluster's tile.
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
