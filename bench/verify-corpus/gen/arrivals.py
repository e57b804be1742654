"""Class `arrivals`: who arrives on an mbarrier, and how many, against its init count."""
from common import consts, fill, kernel
import ring as R

C = "arrivals"
SZ_RING = "M=4096,K=4096"

# --- the TMA ring (ring.py) with different release styles -------------------------------------
kernel("correct", C, "ring_rowsum_thread_release",
       "none (correct)",
       "every one of the 128 consumer threads arrives on the empty barrier (count 128) after its reads.",
       SZ_RING, R.ring("ring_rowsum_thread_release", S=3, empty_count=128))

kernel("correct", C, "ring_rowsum_warp_release",
       "none (correct)",
       "one elected lane per consumer warp arrives (count 4 = 4 consumer warps), after a shuffle that\n"
       "makes the whole warp's reads complete.",
       SZ_RING, R.ring("ring_rowsum_warp_release", S=4, empty_count=4, RELEASE=R.release_elect(4)))

kernel("buggy", C, "ring_rowsum_lane0_vs_threads",
       "hang (the producer waits forever on the empty barrier of round 1)",
       "the empty barriers count 128 (one per consumer thread) but only lane 0 of each consumer warp\n"
       "arrives: 4 arrivals per phase, the phase never completes.",
       SZ_RING, R.ring("ring_rowsum_lane0_vs_threads", S=3, empty_count=128,
                       RELEASE=R.release_lane0(3)))

kernel("buggy", C, "ring_rowsum_warp_release_count8",
       "hang (the producer waits forever on the empty barrier of round 1)",
       "one elected lane per consumer warp arrives, but the empty barriers count 8 arrivals; the\n"
       "consumer role has only 4 warps.",
       SZ_RING, R.ring("ring_rowsum_warp_release_count8", S=4, empty_count=8,
                       RELEASE=R.release_elect(4)))

kernel("buggy", C, "ring_rowsum_threads_vs_count4",
       "race (wrong result): 128 arrivals on a count of 4 complete the empty phase after the first\n"
       "//      4 consumer threads, and the producer refills a slot others still read",
       "every consumer thread arrives on an empty barrier initialised for one arrival per warp (4).",
       SZ_RING, R.ring("ring_rowsum_threads_vs_count4", S=4, empty_count=4))

kernel("buggy", C, "ring_rowsum_block_count",
       "hang (the empty barriers never complete)",
       "the empty barriers are initialised with the block size (160), but only the 128 consumer\n"
       "threads arrive; the producer warp never does.",
       SZ_RING, R.ring("ring_rowsum_block_count", S=2, empty_count=160, extra_consts=(160,)))

# --- a split barrier over the whole block (no roles) ------------------------------------------
SPLIT = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %w: !cake.tensor<[N], f32> {cake.name = "w"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: @@BLOCK@@>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv @@BLOCK@@)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cb = arith.constant @@BLOCK@@ : index
  %clast = arith.constant @@LAST@@ : index
  %third = arith.constant 0.333333343 : f32
  %s = cake.alloc_smem : !cake.smem<@@BLOCK@@xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %lane = cake.lane_id
  %bid = cake.block_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count @@COUNT@@ : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %base = arith.muli %bid, %cb : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<@@BLOCK@@xf32>
@@ARRIVE@@  // Independent work while the other threads publish their values.
  %wt = cake.load %w[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>
  %lpos = arith.maxui %tid, %c1 : index
  %left = arith.subi %lpos, %c1 : index
  %rpos = arith.addi %tid, %c1 : index
  %right = arith.minui %rpos, %clast : index
  %a = cake.load %s[%left] : !cake.smem<@@BLOCK@@xf32> -> f32
  %b = cake.load %s[%tid] : !cake.smem<@@BLOCK@@xf32> -> f32
  %c = cake.load %s[%right] : !cake.smem<@@BLOCK@@xf32> -> f32
  %ab = arith.addf %a, %b : f32
  %abc = arith.addf %ab, %c : f32
  %avg = arith.mulf %abc, %third : f32
  %r = arith.mulf %avg, %wt : f32
  cake.store %r, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
"""

ARR_ALL = "  cake.mbarrier.arrive %bar[%c0] : !cake.mbarriers<1>\n"
ARR_LANE0 = ("  %l0 = arith.cmpi eq, %lane, %c0 : index\n"
             "  scf.if %l0 {\n"
             "    cake.mbarrier.arrive %bar[%c0] : !cake.mbarriers<1>\n"
             "  }\n")
ARR_ELECT = ("  %el = cake.elect_one\n"
             "  scf.if %el {\n"
             "    cake.mbarrier.arrive %bar[%c0] : !cake.mbarriers<1>\n"
             "  }\n")
ARR_TWICE = ("  scf.for %h = %c0 to %c2 step %c1 {\n"
             "    cake.mbarrier.arrive %bar[%c0] : !cake.mbarriers<1>\n"
             "  }\n")


def split(name, block=256, count=256, arrive=ARR_ALL):
    t = fill(SPLIT, NAME=name, BLOCK=block, LAST=block - 1, COUNT=count, ARRIVE=arrive)
    if "%c2" in arrive:
        t = t.replace("  %c1 = arith.constant 1 : index\n",
                      "  %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n", 1)
    return t


kernel("correct", C, "split_smooth_all_threads",
       "none (correct)",
       "a split arrive/wait barrier: all 256 threads arrive on a count of 256 after their store.",
       "N=1000000", split("split_smooth_all_threads"))

kernel("buggy", C, "split_smooth_lane0_count256",
       "hang (8 arrivals on a count of 256: the wait never passes)",
       "only lane 0 of each warp arrives (8 arrivals) but the barrier counts 256.",
       "N=1000000", split("split_smooth_lane0_count256", arrive=ARR_LANE0))

kernel("buggy", C, "split_smooth_warp_count8_block512",
       "race (wrong result): the phase completes when 8 of the 16 warps have arrived",
       "one arrival per warp against a count of 8, in a block of 16 warps: the other 8 warps'\n"
       "stores may not have happened when the neighbours read them.",
       "N=1000000", split("split_smooth_warp_count8_block512", block=512, count=8, arrive=ARR_ELECT))

kernel("buggy", C, "split_smooth_warp_count8_block128",
       "hang (4 arrivals on a count of 8)",
       "one elected arrival per warp against a count of 8, but the block has only 4 warps.",
       "N=1000000", split("split_smooth_warp_count8_block128", block=128, count=8, arrive=ARR_ELECT))

kernel("buggy", C, "split_smooth_count255",
       "race (wrong result, rare): the phase completes on the 255th arrival, before the last\n"
       "//      thread's store is published",
       "off-by-one count: 255 while all 256 threads arrive.",
       "N=1000000", split("split_smooth_count255", count=255))

kernel("buggy", C, "split_smooth_double_arrive",
       "race (wrong result): each thread arrives twice, so the phase completes after 128 threads",
       "a loop over two halves arrives once per half: 512 arrivals per phase on a count of 256.",
       "N=1000000", split("split_smooth_double_arrive", arrive=ARR_TWICE))

# --- two roles meeting on one barrier ----------------------------------------------------------
MEET = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, 128], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M"],
                grid = affine_map<()[m] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %tile = cake.alloc_smem : !cake.smem<128xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count @@COUNT0@@ : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 128 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "stage" warps [0, 4) {
      %v = cake.load %x[%row, %tid] masked : !cake.tensor<[M, 128], f32> -> f32
      %e = math.exp %v : f32
      cake.store %e, %tile[%tid] : f32, !cake.smem<128xf32>
@@STAGE_ARRIVE@@    }
    cake.role "use" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      %mirror = arith.subi %c127, %u : index
@@USE_SYNC@@      %a = cake.load %tile[%u] : !cake.smem<128xf32> -> f32
      %b = cake.load %tile[%mirror] : !cake.smem<128xf32> -> f32
      %s = arith.addf %a, %b : f32
      cake.store %s, %y[%row, %u] masked : f32, !cake.tensor<[M, 128], f32>
    }
  }
  cake.return
}
"""
ST_ARR0 = "      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>\n"
USE_WAIT0 = "      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<2>\n"
USE_ARR_WAIT0 = ("      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<2>\n"
                 "      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<2>\n")
USE_ARR_WAIT1 = ("      cake.mbarrier.arrive %bars[%c1] : !cake.mbarriers<2>\n"
                 "      cake.mbarrier.wait %bars[%c1], %c0 : !cake.mbarriers<2>\n")


def meet(name, count0, stage=ST_ARR0, use=USE_WAIT0):
    return fill(MEET, NAME=name, COUNT0=count0, STAGE_ARRIVE=stage, USE_SYNC=use)


kernel("correct", C, "meet_stage_signals",
       "none (correct)",
       "the staging role's 128 threads arrive on barrier 0 (count 128); the using role only waits.",
       "M=5000", meet("meet_stage_signals", 128))
kernel("correct", C, "meet_both_roles_count256",
       "none (correct)",
       "both roles arrive on barrier 0 (count 256 = both roles), the using role then waits: the phase\n"
       "needs the staging role's arrivals.",
       "M=5000", meet("meet_both_roles_count256", 256, use=USE_ARR_WAIT0))
kernel("buggy", C, "meet_own_arrivals_complete",
       "race (wrong result): the using role's own 128 arrivals complete the phase it waits for",
       "both roles arrive on barrier 0 but its count (128) covers one role: whichever role arrives\n"
       "first completes the phase, so the reader may pass before the tile is written.",
       "M=5000", meet("meet_own_arrivals_complete", 128, use=USE_ARR_WAIT0))
kernel("buggy", C, "meet_wait_on_ack_barrier",
       "race (wrong result): the reader waits on barrier 1, which only its own arrivals complete",
       "the using role arrives on and waits on its acknowledgement barrier instead of the staging\n"
       "barrier: nothing orders its reads after the staging role's writes.",
       "M=5000", meet("meet_wait_on_ack_barrier", 128, use=USE_ARR_WAIT1))
kernel("buggy", C, "meet_count_both_one_arrives",
       "hang (128 arrivals on a count of 256)",
       "barrier 0 counts both roles (256) but only the staging role arrives.",
       "M=5000", meet("meet_count_both_one_arrives", 256))

# --- two producer warps completing one full barrier ---------------------------------------------
DUAL = """cake.kernel @@@NAME@@(
    %a: !cake.tensor<[M, N], f32> {cake.name = "a"},
    %ta: !cake.tma<[M, N], f32, box [32, 32]> {cake.name = "ta", cake.describes = "a"},
    %b: !cake.tensor<[M, N], f32> {cake.name = "b"},
    %tb: !cake.tma<[M, N], f32, box [32, 32]> {cake.name = "tb", cake.describes = "b"},
    %out: !cake.tensor<[M, N], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 192>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (n ceildiv 32, m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c32 : index
  %n0 = arith.muli %bn, %c32 : index
  %abuf = cake.alloc_smem : !cake.smem<32x32xf32>
  %bbuf = cake.alloc_smem : !cake.smem<32x32xf32>
  %full = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %full[%c0], count @@COUNT@@ : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "load_a" warps [0, 1) {
      %e = cake.elect_one
      scf.if %e {
        cake.mbarrier.arrive_expect_tx %full[%c0], bytes 4096 : !cake.mbarriers<1>
        cake.tma.load %ta[%m0, %n0], %abuf[], %full[%c0]
            : !cake.tma<[M, N], f32, box [32, 32]>, !cake.smem<32x32xf32>, !cake.mbarriers<1>
      }
    }
    cake.role "load_b" warps [1, 2) {
      %e = cake.elect_one
      scf.if %e {
        cake.mbarrier.arrive_expect_tx %full[%c0], bytes 4096 : !cake.mbarriers<1>
        cake.tma.load %tb[%m0, %n0], %bbuf[], %full[%c0]
            : !cake.tma<[M, N], f32, box [32, 32]>, !cake.smem<32x32xf32>, !cake.mbarriers<1>
      }
    }
    cake.role "math" warps [2, 6) {
      %u = arith.subi %tid, %c64 : index
      %r = arith.divui %u, %c4 : index
      %q = arith.remui %u, %c4 : index
      %col = arith.muli %q, %c8 : index
      %col2 = arith.addi %col, %c4 : index
      cake.mbarrier.wait %full[%c0], %c0 : !cake.mbarriers<1>
      %x0 = cake.load %abuf[%r, %col] : !cake.smem<32x32xf32> -> vector<4xf32>
      %y0 = cake.load %bbuf[%r, %col] : !cake.smem<32x32xf32> -> vector<4xf32>
      %x1 = cake.load %abuf[%r, %col2] : !cake.smem<32x32xf32> -> vector<4xf32>
      %y1 = cake.load %bbuf[%r, %col2] : !cake.smem<32x32xf32> -> vector<4xf32>
      %p0 = arith.mulf %x0, %y0 : vector<4xf32>
      %p1 = arith.mulf %x1, %y1 : vector<4xf32>
      %gr = arith.addi %m0, %r : index
      %gc = arith.addi %n0, %col : index
      %gc2 = arith.addi %n0, %col2 : index
      cake.store %p0, %out[%gr, %gc] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
      cake.store %p1, %out[%gr, %gc2] masked : vector<4xf32>, !cake.tensor<[M, N], f32>
    }
  }
  cake.return
}
"""
kernel("correct", C, "dual_producer_count2",
       "none (correct)",
       "two producer warps each arrive with expect-tx on one full barrier initialised for 2 arrivals.",
       "M=3000,N=2048", fill(DUAL, NAME="dual_producer_count2", COUNT=2))
kernel("buggy", C, "dual_producer_count1",
       "race (wrong result): the phase completes on the first producer's bytes, before the other tile lands",
       "two producer warps arrive on a full barrier that counts one arrival.",
       "M=3000,N=2048", fill(DUAL, NAME="dual_producer_count1", COUNT=1))
kernel("buggy", C, "dual_producer_count3",
       "hang (2 arrivals on a count of 3)",
       "the full barrier counts 3 arrivals (an old third producer) but two warps arrive.",
       "M=3000,N=2048", fill(DUAL, NAME="dual_producer_count3", COUNT=3))

# --- expect-tx by a whole warp -----------------------------------------------------------------
WARPTX = """cake.kernel @@@NAME@@(
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
@@ISSUE@@  }
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
"""
ISSUE_OK = """    %e = cake.elect_one
    scf.if %e {
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 4096 : !cake.mbarriers<1>
      cake.tma.load %tx[%m0, %c0], %buf[%c0], %bar[%c0]
          : !cake.tma<[M, 64], f32, box [16, 32]>, !cake.smem<2x16x32xf32>, !cake.mbarriers<1>
      cake.tma.load %tx[%m0, %c32], %buf[%c1], %bar[%c0]
          : !cake.tma<[M, 64], f32, box [16, 32]>, !cake.smem<2x16x32xf32>, !cake.mbarriers<1>
    }
"""
ISSUE_WARP = """    cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 4096 : !cake.mbarriers<1>
    %e = cake.elect_one
    scf.if %e {
      cake.tma.load %tx[%m0, %c0], %buf[%c0], %bar[%c0]
          : !cake.tma<[M, 64], f32, box [16, 32]>, !cake.smem<2x16x32xf32>, !cake.mbarriers<1>
      cake.tma.load %tx[%m0, %c32], %buf[%c1], %bar[%c0]
          : !cake.tma<[M, 64], f32, box [16, 32]>, !cake.smem<2x16x32xf32>, !cake.mbarriers<1>
    }
"""
kernel("correct", C, "two_box_elected_expect",
       "none (correct)",
       "one elected thread announces both boxes (4096 bytes) and issues both copies; count 1.",
       "M=777", fill(WARPTX, NAME="two_box_elected_expect", ISSUE=ISSUE_OK))
kernel("buggy", C, "two_box_warp_expect",
       "hang (or undefined): 32 expect-tx arrivals on a count-1 barrier; 31 arrive on a completed\n"
       "//      or next phase and announce 31 x 4096 bytes that never come",
       "the expect-tx arrival is outside the elect: every lane of warp 0 arrives and expects the bytes.",
       "M=777", fill(WARPTX, NAME="two_box_warp_expect", ISSUE=ISSUE_WARP))
