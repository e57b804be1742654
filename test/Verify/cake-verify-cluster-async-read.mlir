// RUN: cake-opt %s -verify-diagnostics --cake-verify-cluster -o /dev/null

// cluster.multicast-overwrite with an asynchronous reader: a CTA-pair GEMM (cluster of 4, B
// multicast to ranks r and r + 2; examples/blackwell_gemm_pair.mlir) whose per-tile cluster
// barrier sits after the MMAs' commit but before the wait for their completion. The MMAs read
// their operands until that wait, so rank 0's next multicast copy can overwrite the B tile pair
// 1's MMAs still read. (The example, with the barrier after the wait, is clean:
// test/Verify/examples-clean.test.)
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
  %bsender = arith.cmpi ult, %rank, %c2 : index
  %bmask = arith.shli %c5, %rank : index
  %tid = cake.thread_id x
  %leader = arith.cmpi eq, %tid, %c0 : index
  %abuf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<128x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  scf.if %leader {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  %acc = cake.tmem.alloc : !cake.tmem<128x256xf32, pair>
  scf.for %kt = %c0 to %ktiles step %c1 {
    %k0 = arith.muli %kt, %c64 : index
    scf.if %leader {
      cake.mbarrier.arrive_expect_tx %bars[%c0], bytes 32768 : !cake.mbarriers<2>
      cake.tma.load %ta[%m0, %k0], %abuf[], %bars[%c0]
          : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>,
            !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<2>
      scf.if %bsender {
        // expected-error @+2 {{[cluster.multicast-overwrite] rank 0's multicast writes slot [] of this buffer in rank 2 in every iteration of the loop, and rank 2 reads that slot in the loop with no cluster barrier between its read and rank 0's next copy: the next copy can overwrite the tile rank 2 still reads (an MMA reads its operands until the wait for its completion)}}
        // expected-note @+1 {{fix: add a cake.cluster_barrier after the read and before the next copy}}
        cake.tma.load %tb[%bn0, %k0], %bbuf[], %bars[%c0] multicast %bmask
            : !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128>,
              !cake.smem<128x64xbf16, swizzle = 128>, !cake.mbarriers<2>
      }
    }
    cake.mbarrier.wait %bars[%c0], %kt : !cake.mbarriers<2>
    cake.cluster_barrier
    scf.if %leader {
      %more = arith.cmpi ugt, %kt, %c0 : index
      // expected-note @+1 {{rank 2 reads the slot here}}
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
    cake.cluster_barrier
    cake.mbarrier.wait %bars[%c1], %kt : !cake.mbarriers<2>
  }
  %row = arith.addi %m0, %tid : index
  scf.for %j = %c0 to %c256 step %c4 {
    %v = cake.tmem.load %acc[%j] : !cake.tmem<128x256xf32, pair> -> vector<4xf32>
    %col = arith.addi %n0, %j : index
    cake.store %v, %c[%row, %col] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
  }
  cake.cluster_barrier
  cake.tmem.dealloc %acc : !cake.tmem<128x256xf32, pair>
  cake.return
}
