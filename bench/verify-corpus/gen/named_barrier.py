"""Class `named-barrier`: bar.sync with an id and a thread count, between and within roles.

Family: a 'fill' role (warpgroup 0) computes exp(x[row, :]) into a shared row, a 'drain' role
(warpgroup 1) reads it reversed and writes y; the two hand the row back and forth with named
barriers, one row per iteration."""
from common import fill, kernel

C = "named-barrier"

HAND = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[R, 128], f32> {cake.name = "x"},
    %y: !cake.tensor<[R, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: @@BLOCK@@>, symbols = ["R"],
                grid = affine_map<()[r] -> (r ceildiv 16)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %row_buf = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %r0 = arith.muli %bid, %c16 : index
  cake.warp_roles {
    cake.role "fill" warps [0, 4) {
@@FILL_PRE@@      scf.for %i = %c0 to %c16 step %c1 {
        %row = arith.addi %r0, %i : index
        %v = cake.load %x[%row, %tid] masked : !cake.tensor<[R, 128], f32> -> f32
        %e = math.exp %v : f32
@@FILL_BEFORE@@        cake.store %e, %row_buf[%tid] : f32, !cake.smem<128xf32>
@@FILL_AFTER@@      }
    }
    cake.role "drain" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      %mirror = arith.subi %c127, %u : index
      scf.for %i = %c0 to %c16 step %c1 {
        %row = arith.addi %r0, %i : index
@@DRAIN_BEFORE@@        %e = cake.load %row_buf[%mirror] : !cake.smem<128xf32> -> f32
@@DRAIN_AFTER@@        cake.store %e, %y[%row, %u] masked : f32, !cake.tensor<[R, 128], f32>
      }
    }
@@EXTRA_ROLE@@  }
  cake.return
}
"""


def nb(i, n, ind=8):
    return " " * ind + f"cake.named_barrier {i}, threads {n}\n"


def hand(name, block=256, fill_pre="", fill_before="", fill_after=None, drain_before=None,
         drain_after=None, extra=""):
    return fill(HAND, NAME=name, BLOCK=block, FILL_PRE=fill_pre, FILL_BEFORE=fill_before,
                FILL_AFTER=fill_after if fill_after is not None else nb(1, 256) + nb(2, 256),
                DRAIN_BEFORE=drain_before if drain_before is not None else nb(1, 256),
                DRAIN_AFTER=drain_after if drain_after is not None else nb(2, 256),
                EXTRA_ROLE=extra)


SZ = "R=65536"
kernel("correct", C, "row_handoff_two_barriers",
       "none (correct)",
       "cross-role handoff: after writing the row, fill syncs with drain on barrier 1 (256 = both\n"
       "roles); after reading it, drain syncs on barrier 2 before fill overwrites it.",
       SZ, hand("row_handoff_two_barriers"))
kernel("buggy", C, "row_handoff_count_one_role",
       "race (wrong result): a barrier of 128 completes with one role's warps, so fill and drain no\n"
       "//      longer wait for each other",
       "the named barriers count 128 threads (one role) while both roles (256 threads) use them.",
       SZ, hand("row_handoff_count_one_role", fill_after=nb(1, 128) + nb(2, 128),
                drain_before=nb(1, 128), drain_after=nb(2, 128)))
kernel("buggy", C, "row_handoff_ids_crossed",
       "hang (fill waits at barrier 1 for drain, drain waits at barrier 2 for fill)",
       "drain uses the ids in the opposite order: 2 before its read, 1 after.",
       SZ, hand("row_handoff_ids_crossed", drain_before=nb(2, 256), drain_after=nb(1, 256)))
kernel("buggy", C, "row_handoff_missing_return_barrier",
       "race (wrong result): fill overwrites the row of iteration i + 1 while drain still reads row i",
       "only the 'row ready' barrier is used; nothing tells fill that drain has finished reading.",
       SZ, hand("row_handoff_missing_return_barrier", fill_after=nb(1, 256), drain_after=""))
kernel("buggy", C, "row_handoff_signal_once",
       "hang (drain's second barrier 1 never completes: fill reached it once)",
       "fill syncs on barrier 1 once, before its loop, as a 'start' signal; drain syncs every row.",
       SZ, hand("row_handoff_signal_once", fill_pre=nb(1, 256, 6), fill_after="", drain_after=""))
kernel("buggy", C, "row_handoff_third_role_joins",
       "race or hang: 384 threads arrive at a 256-thread barrier 1, so instances complete with an\n"
       "//      arbitrary mix of roles",
       "a third role (a monitoring warpgroup) also syncs on barrier 1, which counts only fill + drain.",
       SZ, hand("row_handoff_third_role_joins", block=384,
                extra=("    cake.role \"monitor\" warps [8, 12) {\n"
                       "      scf.for %i = %c0 to %c16 step %c1 {\n"
                       "        cake.named_barrier 1, threads 256\n"
                       "      }\n"
                       "    }\n")))
kernel("buggy", C, "row_handoff_count_three_roles",
       "hang (barrier 1 counts 384 threads; only fill and drain, 256, arrive)",
       "the barrier count includes a warpgroup that does not take part in the handoff.",
       SZ, hand("row_handoff_count_three_roles", block=384, fill_after=nb(1, 384) + nb(2, 256),
                drain_before=nb(1, 384),
                extra=("    cake.role \"idle\" warps [8, 12) {\n"
                       "    }\n")))
kernel("buggy", C, "row_handoff_return_before_read",
       "race (wrong result): drain releases the row (barrier 2) before reading it",
       "drain's barrier 2 comes before its read, so fill may overwrite the row it is about to read.",
       SZ, hand("row_handoff_return_before_read", drain_before=nb(1, 256) + nb(2, 256), drain_after=""))

# --- per-warpgroup barriers inside one role -----------------------------------------------------
WG = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[R, 512], f32> {cake.name = "x"},
    %y: !cake.tensor<[R], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["R"],
                grid = affine_map<()[r] -> (r ceildiv 2)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c384 = arith.constant 384 : index
  %scratch = cake.alloc_smem : !cake.smem<2x4xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  cake.warp_roles {
    cake.role "io" warps [0, 4) {
    }
    cake.role "reduce" warps [4, 12) {
      // Warpgroup g (1 or 2) sums row 2 b + g - 1: each warp reduces 128 elements, warp sums go
      // through scratch[g - 1], one barrier per warpgroup.
      %wg = cake.warpgroup_id
      %g = arith.subi %wg, %c1 : index
      %r2 = arith.muli %bid, %c2 : index
      %row = arith.addi %r2, %g : index
      %warp = cake.warp_id
      %wq = arith.remui %warp, %c4 : index
      %lt = arith.remui %tid, %c128 : index
      %v0 = cake.load %x[%row, %lt] masked : !cake.tensor<[R, 512], f32> -> f32
      %c1a = arith.addi %lt, %c128 : index
      %v1 = cake.load %x[%row, %c1a] masked : !cake.tensor<[R, 512], f32> -> f32
      %c2a = arith.addi %lt, %c256 : index
      %v2 = cake.load %x[%row, %c2a] masked : !cake.tensor<[R, 512], f32> -> f32
      %c3a = arith.addi %lt, %c384 : index
      %v3 = cake.load %x[%row, %c3a] masked : !cake.tensor<[R, 512], f32> -> f32
      %s01 = arith.addf %v0, %v1 : f32
      %s23 = arith.addf %v2, %v3 : f32
      %s = arith.addf %s01, %s23 : f32
      %ws = cake.warp_reduce sum %s : f32
      %lane = cake.lane_id
      %l0 = arith.cmpi eq, %lane, %c0 : index
      scf.if %l0 {
        cake.store %ws, %scratch[%g, %wq] : f32, !cake.smem<2x4xf32>
      }
@@SYNC@@      %w0 = arith.cmpi eq, %wq, %c0 : index
      %first = arith.andi %w0, %l0 : i1
      scf.if %first {
        %p = cake.load %scratch[%g, %c0] : !cake.smem<2x4xf32> -> vector<4xf32>
        %t = vector.reduction <add>, %p : vector<4xf32> into f32
        cake.store %t, %y[%row] masked : f32, !cake.tensor<[R], f32>
      }
    }
  }
  cake.return
}
"""
kernel("correct", C, "wg_reduce_barrier_per_warpgroup",
       "none (correct)",
       "each consumer warpgroup syncs its own 4 warps on its own id (1 + g), 128 threads.",
       "R=100000", fill(WG, NAME="wg_reduce_barrier_per_warpgroup",
                        SYNC=("      scf.if %first_wg {\n"
                              "        cake.named_barrier 1, threads 128\n"
                              "      } else {\n"
                              "        cake.named_barrier 2, threads 128\n"
                              "      }\n")).replace(
                            "@@SYNC@@", "").replace("      %lane = cake.lane_id\n",
                                                    "      %lane = cake.lane_id\n      %first_wg = arith.cmpi eq, %g, %c0 : index\n"))
kernel("buggy", C, "wg_reduce_shared_id",
       "race (wrong result): both warpgroups' 8 warps share id 1 with a count of 128, so an instance\n"
       "//      can complete with warps of both groups and a warpgroup reads partial sums not yet written",
       "one id for both consumer warpgroups, each counting its own 128 threads.",
       "R=100000", fill(WG, NAME="wg_reduce_shared_id", SYNC="      cake.named_barrier 1, threads 128\n"))
kernel("correct", C, "wg_reduce_one_barrier_both_groups",
       "none (correct)",
       "one named barrier over both consumer warpgroups (256 threads): slower but correct.",
       "R=100000", fill(WG, NAME="wg_reduce_one_barrier_both_groups", SYNC="      cake.named_barrier 1, threads 256\n"))
kernel("buggy", C, "wg_reduce_count_includes_io",
       "hang (the io warpgroup never reaches barrier 1, which counts 384)",
       "the barrier counts the whole block while only the reduce role (256 threads) syncs on it.",
       "R=100000", fill(WG, NAME="wg_reduce_count_includes_io", SYNC="      cake.named_barrier 1, threads 384\n"))
kernel("buggy", C, "wg_reduce_lane_guarded_barrier",
       "undefined per PTX (bar.sync is .aligned and lanes 1..31 skip it); the H200 counts the whole\n"
       "//      warp at lane 0's arrival and completes it, so it runs correctly there",
       "the named barrier sits inside the lane-0 branch that stores the warp's sum.",
       "R=100000", fill(WG, NAME="wg_reduce_lane_guarded_barrier", SYNC="").replace(
           "        cake.store %ws, %scratch[%g, %wq] : f32, !cake.smem<2x4xf32>\n      }\n",
           "        cake.store %ws, %scratch[%g, %wq] : f32, !cake.smem<2x4xf32>\n"
           "        cake.named_barrier 1, threads 256\n      }\n"))
kernel("buggy", C, "row_handoff_id_reused_inside_role",
       "hang or race: fill's private warpgroup barrier (id 1, 128) and the cross-role barrier (id 1,\n"
       "//      256) share one hardware barrier, so arrivals of both uses mix",
       "fill also syncs its own warps on id 1 (128 threads) before writing, reusing the handoff's id.",
       SZ, hand("row_handoff_id_reused_inside_role", fill_before=nb(1, 128)))
kernel("correct", C, "row_handoff_private_id",
       "none (correct)",
       "fill syncs its own warps on a private id (3, 128 threads) before writing; the handoff keeps\n"
       "ids 1 and 2 over both roles.",
       SZ, hand("row_handoff_private_id", fill_before=nb(3, 128)))
kernel("buggy", C, "row_handoff_drain_extra_sync",
       "hang (drain reaches barrier 2 twice per row, fill once)",
       "drain syncs on barrier 2 before its read as well as after it.",
       SZ, hand("row_handoff_drain_extra_sync", drain_before=nb(1, 256) + nb(2, 256)))
