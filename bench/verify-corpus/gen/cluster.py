"""Class `cluster`: thread block clusters, TMA multicast and cluster barriers.

Family: y[row, :] = x[row, :] * W[row mod 16, :] (f32, 32 columns), where the 16x32 weight tile
is shared by a pair of blocks: rank r of the pair copies rows 8 r .. 8 r + 7 of the tile with a
multicast to both, so each block's barrier receives 2 x 1024 bytes."""
from common import fill, kernel

C = "cluster"

BASE = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %w: !cake.tensor<[H, 32], f32> {cake.name = "w"},
    %tw: !cake.tma<[H, 32], f32, box [8, 32]> {cake.name = "tw", cake.describes = "w"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: @@CL@@>,
                symbols = ["M", "H"], grid = affine_map<()[m, h] -> ((m ceildiv 32) * 2)>} {
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
  %cid = cake.cluster_id x
@@PAIR@@  %wbuf = cake.alloc_smem : !cake.smem<2x8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %mdim = cake.problem_size "M"
  %i = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %col = arith.muli %q, %c4 : index
  %half16 = arith.muli %half, %c16 : index
  %rows0 = arith.muli %pairid, %c32 : index
  %rows1 = arith.addi %rows0, %half16 : index
  %row = arith.addi %rows1, %i : index
@@BODY@@  cake.return
}
"""
PAIR2 = ("  // A cluster of 2 is one pair.\n"
         "  %pairid = arith.addi %cid, %c0 : index\n"
         "  %half = arith.addi %rank, %c0 : index\n")
PAIR4 = ("  // A cluster of 4 holds two pairs: ranks 2 p and 2 p + 1 share tile p of the cluster.\n"
         "  %p = arith.divui %rank, %c2 : index\n"
         "  %half = arith.remui %rank, %c2 : index\n"
         "  %cid2 = arith.muli %cid, %c2 : index\n"
         "  %pairid = arith.addi %cid2, %p : index\n")
INIT = ("  scf.if %t0 {\n"
        "    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>\n"
        "    cake.fence.mbarrier_init\n"
        "  }\n")
LOADS = ("  scf.if %t0 {\n"
         "    cake.mbarrier.arrive_expect_tx %bar[%c0], bytes @@BYTES@@ : !cake.mbarriers<1>\n"
         "    %w16 = arith.muli %pairid, %c16 : index\n"
         "    %r8 = arith.muli %half, %c8 : index\n"
         "    %wrow = arith.addi %w16, %r8 : index\n"
         "    cake.tma.load %tw[%wrow, %c0], %wbuf[@@DEST@@], %bar[%c0] multicast @@MASK@@\n"
         "        : !cake.tma<[H, 32], f32, box [8, 32]>, !cake.smem<2x8x32xf32>, !cake.mbarriers<1>\n"
         "  }\n")
USE = ("  cake.mbarrier.wait %bar[%c0], %c0 : !cake.mbarriers<1>\n"
       "  %hi = arith.divui %i, %c8 : index\n"
       "  %lo = arith.remui %i, %c8 : index\n"
       "  %wv = cake.load %wbuf[%hi, %lo, %col] : !cake.smem<2x8x32xf32> -> vector<4xf32>\n"
       "  %xv = cake.load %x[%row, %col] masked : !cake.tensor<[M, 32], f32> -> vector<4xf32>\n"
       "  %pv = arith.mulf %xv, %wv : vector<4xf32>\n"
       "  cake.store %pv, %y[%row, %col] masked : vector<4xf32>, !cake.tensor<[M, 32], f32>\n")
MASK4 = ("  %sh = arith.muli %p, %c2 : index\n"
         "  %pmask = arith.shli %c3, %sh : index\n")


def body(init=INIT, publish="  cake.cluster_barrier\n", pre="", bytes_=2048, dest="%half", mask="%c3",
         use=USE, exit_="  cake.cluster_barrier\n"):
    return init + publish + pre + fill(LOADS, BYTES=bytes_, DEST=dest, MASK=mask) + use + exit_


def k2(name, **kw):
    return fill(BASE, NAME=name, CL=2, PAIR=PAIR2, BODY=body(**kw))


def k4(name, **kw):
    t = fill(BASE, NAME=name, CL=4, PAIR=PAIR4, BODY=body(**kw))
    return t.replace("((m ceildiv 32) * 2)", "((m ceildiv 64) * 4)")


SZ = "M=100000,H=50000"
kernel("correct", C, "pair_multicast_weights",
       "none (correct)",
       "a cluster of 2: each rank multicasts its half of the shared tile to both (mask 3) and expects the\n"
       "whole tile; a cluster barrier publishes the barrier inits, another ends the kernel.",
       SZ, k2("pair_multicast_weights"))
kernel("correct", C, "two_pairs_shifted_mask",
       "none (correct)",
       "a cluster of 4 = two pairs, each multicasting within its pair: mask 3 << (2 p).",
       SZ, k4("two_pairs_shifted_mask", pre=MASK4, mask="%pmask"))
kernel("buggy", C, "pair_init_published_by_block_barrier",
       "hang or undefined: the peer's multicast may complete_tx on this block's barrier before it is\n"
       "//      initialised",
       "the barrier inits are published with a block barrier instead of a cluster barrier, so the\n"
       "peer block may issue its multicast before this block initialised its barrier.",
       SZ, k2("pair_init_published_by_block_barrier", publish="  cake.barrier\n"))
kernel("buggy", C, "two_pairs_mask_not_shifted",
       "hang (ranks 2 and 3 never receive their tile; ranks 0 and 1 receive twice the bytes)",
       "the multicast mask is the constant 3 in both pairs of a cluster of 4, instead of 3 << (2 p).",
       SZ, k4("two_pairs_mask_not_shifted"))
PEER = ("  %peer = arith.xori %rank, %c1 : index\n"
        "  %peermask = arith.shli %c1, %peer : index\n")
kernel("buggy", C, "pair_multicast_peer_only",
       "hang (each barrier receives only the peer's 1024 bytes of the 2048 it expects)",
       "each rank multicasts its half only to the peer (mask 1 << (rank ^ 1)), not to itself.",
       SZ, k2("pair_multicast_peer_only", pre=PEER, mask="%peermask"))
kernel("buggy", C, "pair_multicast_peer_only_half_bytes",
       "race (wrong result): each block's own half of the tile is never written, it reads stale smem",
       "each rank multicasts only to the peer and expects 1024 bytes, so the phase completes but the\n"
       "block's own half never lands in its buffer.",
       SZ, k2("pair_multicast_peer_only_half_bytes", pre=PEER, mask="%peermask", bytes_=1024))
kernel("buggy", C, "pair_expects_own_box_only",
       "race (wrong result): the phase completes after 1024 of the 2048 bytes that land on the barrier",
       "each block expects only the bytes of its own copy, but both multicasts complete on its barrier.",
       SZ, k2("pair_expects_own_box_only", bytes_=1024))
kernel("buggy", C, "pair_init_in_rank0_only",
       "hang or undefined: rank 1's barrier is never initialised",
       "the init is guarded by rank == 0 as well as thread 0 (one init 'per cluster').",
       SZ, k2("pair_init_in_rank0_only", init=("  %r0 = arith.cmpi eq, %rank, %c0 : index\n"
                                                "  %t0r0 = arith.andi %t0, %r0 : i1\n"
                                                "  scf.if %t0r0 {\n"
                                                "    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>\n"
                                                "    cake.fence.mbarrier_init\n"
                                                "  }\n")))
kernel("buggy", C, "pair_same_destination_half",
       "race (wrong result): both halves land in buffer half 0; half 1 is never written",
       "every rank multicasts into %wbuf[0] instead of its own half.",
       SZ, k2("pair_same_destination_half", dest="%c0"))
kernel("buggy", C, "pair_mask_from_cluster_id",
       "hang or launch failure: in odd-numbered clusters the mask is 6 (ranks 1 and 2; there is no\n"
       "//      rank 2), so rank 0 never receives its tile",
       "the multicast mask is shifted by the cluster id (mod 2) instead of being the pair's mask 3.",
       SZ, k2("pair_mask_from_cluster_id", pre=("  %cm = arith.remui %cid, %c2 : index\n"
                                                 "  %cmask = arith.shli %c3, %cm : index\n"), mask="%cmask"))
kernel("buggy", C, "pair_exit_barrier_in_thread0",
       "undefined (barrier.cluster.arrive/wait is .aligned, here executed by one thread per block);\n"
       "//      expected a hang, the H200 completes it",
       "the final cluster barrier is executed by thread 0 only.",
       SZ, k2("pair_exit_barrier_in_thread0", exit_=("  scf.if %t0 {\n"
                                                      "    cake.cluster_barrier\n"
                                                      "  }\n")))
RAG_BUG = ("  %inrange = arith.cmpi ult, %rows1, %mdim : index\n"
           "  scf.if %inrange {\n" +
           "".join("  " + l + "\n" for l in (fill(LOADS, BYTES=2048, DEST="%half", MASK="%c3") + USE +
                                             "  cake.cluster_barrier\n").rstrip("\n").split("\n")) +
           "  }\n")
kernel("buggy", C, "pair_ragged_block_exits_early",
       "wrong-result-for-some-shapes (illegal address / hang): M=100016 leaves rank 1 of the last pair\n"
       "//      with no rows; it skips everything and exits while rank 0 multicasts into it and waits at\n"
       "//      the cluster barrier",
       "a block whose rows are all past M skips the loads, the wait and the final cluster barrier.",
       "M=100016,H=50008", fill(BASE, NAME="pair_ragged_block_exits_early", CL=2, PAIR=PAIR2,
                                BODY=INIT + "  cake.cluster_barrier\n" + RAG_BUG))
RAG_OK = INIT + "  cake.cluster_barrier\n" + fill(LOADS, BYTES=2048, DEST="%half", MASK="%c3") + \
    USE.replace("  %xv = cake.load", "  %xv = cake.load") + "  cake.cluster_barrier\n"
kernel("correct", C, "pair_ragged_all_blocks_participate",
       "none (correct)",
       "ragged M: every block of the pair loads, multicasts and waits; only the masked global accesses\n"
       "skip rows past M.",
       "M=100016,H=50008", fill(BASE, NAME="pair_ragged_all_blocks_participate", CL=2, PAIR=PAIR2, BODY=RAG_OK))

# --- a loop over weight tiles reusing the multicast buffer ------------------------------------
LOOPK = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %w: !cake.tensor<[H, K], f32> {cake.name = "w"},
    %tw: !cake.tma<[H, K], f32, box [8, 32]> {cake.name = "tw", cake.describes = "w"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, cluster = array<i64: 2>,
                symbols = ["M", "H", "K"], grid = affine_map<()[m, h, k] -> ((m ceildiv 32) * 2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %tid = cake.thread_id x
  %rank = cake.cluster_block_id x
  %cid = cake.cluster_id x
  %wbuf = cake.alloc_smem : !cake.smem<2x8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.cluster_barrier
  %i = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %col = arith.muli %q, %c4 : index
  %hi = arith.divui %i, %c8 : index
  %lo = arith.remui %i, %c8 : index
  %half16 = arith.muli %rank, %c16 : index
  %rows0 = arith.muli %cid, %c32 : index
  %rows1 = arith.addi %rows0, %half16 : index
  %row = arith.addi %rows1, %i : index
  %w16 = arith.muli %cid, %c16 : index
  %r8 = arith.muli %rank, %c8 : index
  %wrow = arith.addi %w16, %r8 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %acc = scf.for %kt = %c0 to @@TRIPS@@ step %c1 iter_args(%a = %zero) -> (vector<4xf32>) {
    %k0 = arith.muli %kt, %c32 : index
    %ph = arith.remui %kt, %c2 : index
    scf.if %t0 {
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 2048 : !cake.mbarriers<1>
      cake.tma.load %tw[%wrow, %k0], %wbuf[%rank], %bar[%c0] multicast %c3
          : !cake.tma<[H, K], f32, box [8, 32]>, !cake.smem<2x8x32xf32>, !cake.mbarriers<1>
    }
    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    %wv = cake.load %wbuf[%hi, %lo, %col] : !cake.smem<2x8x32xf32> -> vector<4xf32>
    %kc = arith.addi %k0, %col : index
    %xv = cake.load %x[%row, %kc] masked : !cake.tensor<[M, K], f32> -> vector<4xf32>
    %pv = arith.mulf %xv, %wv : vector<4xf32>
    %a2 = arith.addf %a, %pv : vector<4xf32>
@@SYNC@@    scf.yield %a2 : vector<4xf32>
  }
  cake.store %acc, %y[%row, %col] masked : vector<4xf32>, !cake.tensor<[M, 32], f32>
  cake.cluster_barrier
  cake.return
}
"""
SZK = "M=65536,H=32768,K=4096"
kernel("correct", C, "pair_ktiles_cluster_barrier_per_step",
       "none (correct)",
       "the multicast buffer is reused for every k tile; a cluster barrier per step keeps the peer's\n"
       "next multicast behind this block's reads of the current tile.",
       SZK, fill(LOOPK, NAME="pair_ktiles_cluster_barrier_per_step", TRIPS="%ktiles", SYNC="    cake.cluster_barrier\n"))
kernel("buggy", C, "pair_ktiles_block_barrier_per_step",
       "race (wrong result): the peer's multicast of tile k + 1 can overwrite this block's buffer while\n"
       "//      it still reads tile k (and re-arm a phase this block has not waited for)",
       "the per-step barrier is a block barrier, which does not order the peer block's next multicast.",
       SZK, fill(LOOPK, NAME="pair_ktiles_block_barrier_per_step", TRIPS="%ktiles", SYNC="    cake.barrier\n"))
kernel("buggy", C, "pair_ktiles_trip_count_per_rank",
       "hang (the two blocks of a cluster run different numbers of cluster barriers)",
       "rank 1 stops one k tile early (it was meant to skip a ragged tail), so its peer waits at a\n"
       "cluster barrier (and for a multicast half) that never comes.",
       SZK, fill(LOOPK, NAME="pair_ktiles_trip_count_per_rank", TRIPS="%mytrips",
                 SYNC="    cake.cluster_barrier\n").replace(
           "  %zero = arith.constant dense<0.0> : vector<4xf32>\n",
           "  %zero = arith.constant dense<0.0> : vector<4xf32>\n"
           "  %short = arith.subi %ktiles, %rank : index\n"
           "  %mytrips = arith.maxui %short, %c1 : index\n"))
