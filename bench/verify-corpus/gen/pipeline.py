"""Class `pipeline`: producer/consumer protocols over cake.pipeline (and one hand-written ring)."""
from common import consts, fill, kernel, persistent_head
import gemm as G
import ring as R

C = "pipeline"
SZ = "M=4096,N=4096,K=4096"

kernel("correct", C, "gemm_release_current",
       "none (correct)",
       "every consumer thread releases stage kt (consumers 256) after wgmma.wait 0 retired its reads.",
       SZ, G.gemm("gemm_release_current"))
kernel("correct", C, "gemm_rotated_acquire",
       "none (correct)",
       "the rotated producer loop: acquire 0 before the loop, and at the end of iteration kt acquire\n"
       "stage kt + 1 (if any) for the next iteration.",
       SZ, G.gemm("gemm_rotated_acquire", PRODUCER=G.producer_rotated(3)))
kernel("correct", C, "gemm_lag1_wg_leader",
       "none (correct)",
       "one wgmma group stays in flight (wait 1); thread 0 of each consumer warpgroup releases the\n"
       "previous stage (consumers 2), guarded by kt > 0; a final wait 0 before the epilogue.",
       SZ, G.gemm("gemm_lag1_wg_leader", S=4, consumers=2, AFTER=G.after_lag1(4)))

kernel("buggy", C, "gemm_release_next",
       "race (wrong result): the producer refills the stage of iteration kt + 1 + S before it is read",
       "the consumers release iteration kt + 1 (not yet read) instead of kt; stage kt is never released\n"
       "for itself, the release of kt + S stands in for it.",
       SZ, G.gemm("gemm_release_next", AFTER=(
           "        cake.wgmma.wait 0\n"
           "        %nxt = arith.addi %kt, %c1 : index\n"
           "        cake.pipeline.consumer_release %pipe[%nxt] : !cake.pipeline<3>\n")))
kernel("buggy", C, "gemm_release_prev_unguarded",
       "race (wrong result): the stray release of iteration -1 at kt = 0 lets the producer run one stage\n"
       "//      ahead and overwrite a stage a wgmma group still reads",
       "the lag-1 release of kt - 1 is not guarded by kt > 0: iteration 0 releases iteration -1.",
       SZ, G.gemm("gemm_release_prev_unguarded", S=4, consumers=2, AFTER=G.after_lag1(4, guard=False)))
kernel("buggy", C, "gemm_release_in_flight",
       "race (wrong result): the stage is refilled while the wgmma group reading it still runs",
       "wgmma.wait 1 keeps the current group in flight, but the current stage kt is released.",
       SZ, G.gemm("gemm_release_in_flight", AFTER=(
           "        cake.wgmma.wait 1\n"
           "        cake.pipeline.consumer_release %pipe[%kt] : !cake.pipeline<3>\n")))

RAGGED_COMMIT = (
    "            %klast = arith.subi %ktiles, %c1 : index\n"
    "            %krem = arith.remui %kdim, %c64 : index\n"
    "            %ragged = arith.cmpi ne, %krem, %c0 : index\n"
    "            %last = arith.cmpi eq, %kt, %klast : index\n"
    "            %partial = arith.andi %last, %ragged : i1\n"
    "            scf.if %partial {\n"
    "              cake.pipeline.producer_commit %pipe[%kt], tx_bytes @@RAGBYTES@@ : !cake.pipeline<3>\n"
    "            } else {\n"
    "              cake.pipeline.producer_commit %pipe[%kt], tx_bytes 32768 : !cake.pipeline<3>\n"
    "            }\n")
kernel("buggy", C, "gemm_ragged_tile_tx_in_if",
       "wrong-result-for-some-shapes: K=1000 (last k tile 40 wide) completes the last stage early; K=1024 works",
       "on a ragged last k tile the commit (inside scf.if) announces half the bytes, as if TMA delivered\n"
       "only the in-bounds part; TMA always delivers the whole box (zero-filled).",
       "M=4096,N=4096,K=1000",
       G.gemm("gemm_ragged_tile_tx_in_if",
              PRODUCER=G.producer_std(3, commit=fill(RAGGED_COMMIT, RAGBYTES=16384))))
kernel("correct", C, "gemm_commit_in_if_full_box",
       "none (correct)",
       "the commit sits in an scf.if on the ragged last tile, but both branches announce the full\n"
       "32768 bytes that TMA delivers (zero fill included).",
       "M=4096,N=4096,K=1000",
       G.gemm("gemm_commit_in_if_full_box",
              PRODUCER=G.producer_std(3, commit=fill(RAGGED_COMMIT, RAGBYTES=32768))))

kernel("buggy", C, "gemm_one_stage_group_in_flight",
       "hang (acquire of kt needs the release of kt - 1, which follows the wait for kt)",
       "one stage but two tiles in flight: the consumers keep one wgmma group in flight and release the\n"
       "previous stage, which a 1-stage ring cannot afford.",
       SZ, G.gemm("gemm_one_stage_group_in_flight", S=1, consumers=2, AFTER=G.after_lag1(1)))
LOOKAHEAD = (
    "        %nk = arith.addi %kt, %c1 : index\n"
    "        %more = arith.cmpi ult, %nk, %ktiles : index\n"
    "        scf.if %more {\n"
    "          cake.pipeline.consumer_wait %pipe[%nk] : !cake.pipeline<2>\n"
    "        }\n")
kernel("buggy", C, "gemm_lookahead_two_stages",
       "hang (three tiles in flight on two stages: acquire of kt + 1 waits for the release of kt - 1,\n"
       "//      which follows the look-ahead wait for kt + 1)",
       "the consumers check that the next tile has landed before retiring the previous group, while\n"
       "still holding stage kt - 1 (released late) and kt.",
       SZ, G.gemm("gemm_lookahead_two_stages", S=2, consumers=2,
                  AFTER=LOOKAHEAD + G.after_lag1(2)))
kernel("buggy", C, "gemm_commit_per_warp",
       "hang or race: four producer warps each commit (4 arrivals on a count-1 full barrier) and each\n"
       "//      issues the copies",
       "the producer's warp-0 guard is missing: an elected lane of each of the 4 producer warps runs the\n"
       "whole loop.",
       SZ, G.gemm("gemm_commit_per_warp", PRODUCER=G.producer_std(3, per_warp=True)))

# --- a persistent loop over output rows with the pipeline primitive ---------------------------
PP = persistent_head(264, (0, 1, 4, 8, 32), share=True) + """  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %pipe = cake.pipeline.create consumers 128 : !cake.pipeline<2>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %i = %c0 to %count step %c1 {
          %step = arith.muli %i, %nblocks : index
          %t = arith.addi %bid, %step : index
          %m0 = arith.muli %t, %c32 : index
          %g0 = arith.muli %i, %ktiles : index
          scf.for %kt = %c0 to %ktiles step %c1 {
            %g = arith.addi %g0, %kt : index
            cake.pipeline.producer_acquire %pipe[@@P@@] : !cake.pipeline<2>
            cake.pipeline.producer_commit %pipe[@@P@@], tx_bytes 4096 : !cake.pipeline<2>
            %slot = cake.pipeline.slot %pipe[@@P@@] : !cake.pipeline<2>
            %k0 = arith.muli %kt, %c32 : index
            cake.tma.load %tx[%m0, %k0], %buf[%slot], %pipe[@@P@@]
                : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.pipeline<2>
          }
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %zero = arith.constant 0.0 : f32
      scf.for %i = %c0 to %count step %c1 {
        %step = arith.muli %i, %nblocks : index
        %t = arith.addi %bid, %step : index
        %m0 = arith.muli %t, %c32 : index
        %g0 = arith.muli %i, %ktiles : index
        %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
          %g = arith.addi %g0, %kt : index
          cake.pipeline.consumer_wait %pipe[@@W@@] : !cake.pipeline<2>
          %slot = cake.pipeline.slot %pipe[@@W@@] : !cake.pipeline<2>
          %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
          %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
          %v = arith.addf %v0, %v1 : vector<4xf32>
          %part = vector.reduction <add>, %v : vector<4xf32> into f32
@@REL@@          %acc2 = arith.addf %acc, %part : f32
          scf.yield %acc2 : f32
        }
@@TILE_REL@@        %total = cake.warp_reduce sum %sum {lanes = 4 : i64} : f32
        %mrow = arith.addi %m0, %row : index
        %lead = arith.cmpi eq, %quad, %c0 : index
        scf.if %lead {
          cake.store %total, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
        }
      }
    }
  }
  cake.return
}
"""


def pp(name, P="%g", W="%g", REL="%g", tile_rel=False):
    rel = "" if tile_rel else f"          cake.pipeline.consumer_release %pipe[{REL}] : !cake.pipeline<2>\n"
    trel = ("        %kl = arith.subi %ktiles, %c1 : index\n"
            "        %gl = arith.addi %g0, %kl : index\n"
            "        cake.pipeline.consumer_release %pipe[%gl] : !cake.pipeline<2>\n") if tile_rel else ""
    return fill(PP, NAME=name, P=P, W=W, REL=rel, TILE_REL=trel)


kernel("correct", C, "persistent_rows_global_iteration",
       "none (correct)",
       "both roles use the block's global iteration g = i * ktiles + kt for every pipeline op.",
       "M=100000,K=96", pp("persistent_rows_global_iteration"))
kernel("buggy", C, "persistent_rows_consumer_inner_counter",
       "wrong-result-for-some-shapes (or hang): K=96 (3 k-tiles on 2 stages) desynchronises the\n"
       "//      consumers' slot and parity from the producer's at the second tile; K=128 works",
       "the consumers wait, index and release with the inner loop's counter kt while the producer uses\n"
       "the global iteration.",
       "M=100000,K=96", pp("persistent_rows_consumer_inner_counter", W="%kt", REL="%kt"))
kernel("buggy", C, "persistent_rows_restart_per_tile",
       "wrong-result-for-some-shapes: K=96 makes the second tile's waits pass on old phases (parity\n"
       "//      derived from kt / 2 restarts while the barriers keep counting)",
       "both roles pass the inner counter kt as the pipeline iteration: every output tile restarts the\n"
       "ring at iteration 0.",
       "M=100000,K=96", pp("persistent_rows_restart_per_tile", P="%kt", W="%kt", REL="%kt"))
kernel("buggy", C, "persistent_rows_release_per_tile",
       "hang for K > 64 (the producer's acquire of iteration 2 waits for a release of iteration 0 that\n"
       "//      never comes)",
       "the consumers release only the last iteration of each output tile, once per tile.",
       "M=100000,K=4096", pp("persistent_rows_release_per_tile", tile_rel=True))
kernel("buggy", C, "persistent_rows_release_inner_counter",
       "wrong-result-for-some-shapes (or hang): with K=96 the releases land on the wrong slots from the\n"
       "//      second tile on",
       "the consumers wait on the global iteration but release with the inner counter kt.",
       "M=100000,K=96", pp("persistent_rows_release_inner_counter", REL="%kt"))

# --- the hand-written ring, allowing one tile more in flight than it has slots ------------------
SKIP4 = ("          %later = arith.cmpi uge, %kt, %c4 : index\n"
         "          scf.if %later {\n"
         "            cake.mbarrier.wait %bars[%empty], %free : !cake.mbarriers<6>\n"
         "          }\n")
kernel("buggy", C, "ring_four_in_flight_three_slots",
       "race (wrong result): tile 3 overwrites slot 0 while the consumers may still read tile 0",
       "the producer skips the empty wait for the first 4 tiles (a prologue sized for 4 stages) on a\n"
       "3-slot ring: fewer stages than tiles in flight.",
       "M=4096,K=4096", R.ring("ring_four_in_flight_three_slots", S=3, PWAIT=SKIP4))

SKIP0 = (
    "        %e = cake.elect_one\n"
    "        scf.if %e {\n"
    "          scf.for %kt = %c0 to %ktiles step %c1 {\n"
    "            // The stages start empty: no acquire in round 0.\n"
    "            %later = arith.cmpi uge, %kt, %c3 : index\n"
    "            scf.if %later {\n"
    "              cake.pipeline.producer_acquire %pipe[%kt] : !cake.pipeline<3>\n"
    "            }\n"
    "            cake.pipeline.producer_commit %pipe[%kt], tx_bytes 32768 : !cake.pipeline<3>\n"
    + G.loads(3) +
    "          }\n"
    "        }\n")
kernel("correct", C, "gemm_skip_round0_acquire",
       "none (correct)",
       "the producer skips producer_acquire for the first `stages` iterations (the ring starts empty,\n"
       "so those acquires cannot block) and acquires from round 1 on.",
       SZ, G.gemm("gemm_skip_round0_acquire", PRODUCER="      scf.if %w0 {\n" + SKIP0 + "      }\n").replace(
           "  %c16 = arith.constant 16 : index\n", "  %c3 = arith.constant 3 : index\n  %c16 = arith.constant 16 : index\n", 1))
