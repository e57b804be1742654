// Blackwell fp8 GEMM (sm_100a), e4m3 in, f32 out: C[M, N] = A[M, K] * B[N, K]^T, both operands
// K-major. The host passes a (M x K, f8E4M3FN) with its TMA descriptor ta (box 128 x 128),
// b (N x K, f8E4M3FN) with tb (box 256 x 128), c (M x N, f32, written), then M, N, K (i64);
// the grid is (N / 256, M / 128) rounded up, 128 threads a block.
// A block of 128 threads computes a 128x256 tile of C in tensor memory: thread 0 issues the TMA
// copies of a 128x128 A tile and a 256x128 B tile (128 fp8 = one 128-byte swizzled row each),
// then four m128n256k32 tcgen05 MMAs of kind::f8f6f4 (the first of the first tile overwrites the
// accumulator, the rest accumulate) and commits them to an mbarrier; the block waits on it before
// the next copy reuses the buffers. The epilogue reads each thread's row of the accumulator
// (tcgen05.ld, 4 columns at a time: one 16-byte store each) and stores it masked. TMA zero-fills
// ragged tiles (K need not be a multiple of 128). One stage and one block per tile: the protocol
// in its simplest form, not a tuned kernel.
// Compile-only here (no B200 on this machine).
//
// REQUIRES: ptxas
// RUN: cake-opt %s --cake-verify | FileCheck %s --check-prefix=VERIFY
// RUN: cake-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: cake-translate %s --emit=cubin -o %t.cubin --manifest %t.json --ptxas-log %t.log
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: FileCheck %s --check-prefix=PTXAS < %t.log
// RUN: %if cuobjdump %{ %cuobjdump -sass %t.cubin | FileCheck %s --check-prefix=SASS %}
// VERIFY: cake.kernel @blackwell_gemm_fp8
// PTX: .target sm_100a
// PTX: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: tcgen05.mma.cta_group::1.kind::f8f6f4
// PTX: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// PTX: tcgen05.ld.sync.aligned.32x32b.x4.b32
// PTX: tcgen05.dealloc.cta_group::1.sync.aligned.b32
// MANIFEST: "target": "sm_100a"
// PTXAS: Compiling entry function 'blackwell_gemm_fp8' for 'sm_100a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// The four UTC fp8 MMAs (the unrolled k steps of 32), the commit's arrival:
// SASS-COUNT-4: UTCQMMA gdesc[{{.*}}], gdesc[{{.*}}], tmem[{{.*}}]
// SASS: UTCBAR

cake.kernel @blackwell_gemm_fp8(
    %a: !cake.tensor<[M, K], f8E4M3FN> {cake.name = "a"},
    %ta: !cake.tma<[M, K], f8E4M3FN, box [128, 128], swizzle = 128> {cake.name = "ta", cake.describes = "a"},
    %b: !cake.tensor<[N, K], f8E4M3FN> {cake.name = "b"},
    %tb: !cake.tma<[N, K], f8E4M3FN, box [256, 128], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_100a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (n ceildiv 256, m ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %true = arith.constant true
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c128 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c128 : index
  %n0 = arith.muli %bn, %c256 : index
  %tid = cake.thread_id x
  %leader = arith.cmpi eq, %tid, %c0 : index

  %abuf = cake.alloc_smem : !cake.smem<128x128xf8E4M3FN, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<256x128xf8E4M3FN, swizzle = 128>
  // 0: the tiles have landed; 1: the MMAs that read them have completed.
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  scf.if %leader {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32>

  scf.for %kt = %c0 to %ktiles step %c1 {
    %k0 = arith.muli %kt, %c128 : index
    scf.if %leader {
      // 128 x 128 + 256 x 128 bytes.
      cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 49152 : !cake.mbarriers<2>
      cake.tma.load %ta[%m0, %k0], %abuf[], %bars[%c0]
          : !cake.tma<[M, K], f8E4M3FN, box [128, 128], swizzle = 128>,
            !cake.smem<128x128xf8E4M3FN, swizzle = 128>, !cake.mbarriers<2>
      cake.tma.load %tb[%n0, %k0], %bbuf[], %bars[%c0]
          : !cake.tma<[N, K], f8E4M3FN, box [256, 128], swizzle = 128>,
            !cake.smem<256x128xf8E4M3FN, swizzle = 128>, !cake.mbarriers<2>
    }
    cake.mbarrier.wait %bars[%c0], %kt : !cake.mbarriers<2>
    scf.if %leader {
      %more = arith.cmpi ugt, %kt, %c0 : index
      cake.tcgen05.mma %abuf[%c0, %c0], %bbuf[%c0, %c0], %acc, accumulate %more
          : !cake.smem<128x128xf8E4M3FN, swizzle = 128>, !cake.smem<256x128xf8E4M3FN, swizzle = 128>,
            !cake.tmem<128x256xf32>
      cake.tcgen05.mma %abuf[%c0, %c32], %bbuf[%c0, %c32], %acc, accumulate %true
          : !cake.smem<128x128xf8E4M3FN, swizzle = 128>, !cake.smem<256x128xf8E4M3FN, swizzle = 128>,
            !cake.tmem<128x256xf32>
      cake.tcgen05.mma %abuf[%c0, %c64], %bbuf[%c0, %c64], %acc, accumulate %true
          : !cake.smem<128x128xf8E4M3FN, swizzle = 128>, !cake.smem<256x128xf8E4M3FN, swizzle = 128>,
            !cake.tmem<128x256xf32>
      cake.tcgen05.mma %abuf[%c0, %c96], %bbuf[%c0, %c96], %acc, accumulate %true
          : !cake.smem<128x128xf8E4M3FN, swizzle = 128>, !cake.smem<256x128xf8E4M3FN, swizzle = 128>,
            !cake.tmem<128x256xf32>
      cake.tcgen05.commit %bars[%c1] : !cake.mbarriers<2>
    }
    // The MMAs have read the tiles (the next copy may overwrite them) and, after the last
    // tile, written the accumulator.
    cake.mbarrier.wait %bars[%c1], %kt : !cake.mbarriers<2>
    // Only thread 0 arrives: without this barrier it could complete two phases of a barrier
    // before a slow warp checks its parity, which then waits for a later phase
    // (mbarrier.phase-overrun).
    cake.barrier
  }

  // Thread t holds row t of the tile (warp w reads lanes 32w to 32w + 31).
  %row = arith.addi %m0, %tid : index
  scf.for %j = %c0 to %c256 step %c4 {
    %v = cake.tmem.load %acc[%j] : !cake.tmem<128x256xf32> -> vector<4xf32>
    %col = arith.addi %n0, %j : index
    cake.store %v, %c[%row, %col] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  }
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32>
  cake.return
}
