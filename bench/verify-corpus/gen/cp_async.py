"""Class `cp-async`: Ampere cp.async groups, their waits, and the barriers that publish them.

Family: y[r] = sum_k A[r, k] v[k] (f32, sm_80). A block of 128 threads owns 32 rows; each 64-wide k
tile of A (32x64) and v (64) is copied with 16-byte cp.async (4 + 1 per thread) into a ring of
shared tiles; thread t then dots row t / 4, columns 16 (t mod 4) .. + 16, reading other threads'
copies."""
from common import fill, kernel

C = "cp-async"

HEAD = """cake.kernel @@@NAME@@(
    %a: !cake.tensor<[R, K], f32> {cake.name = "a"},
    %v: !cake.tensor<[K], f32> {cake.name = "v"},
    %y: !cake.tensor<[R], f32> {cake.name = "y"})
    attributes {target = "sm_80", block = array<i64: 128>, symbols = ["R", "K"],
                grid = affine_map<()[r, k] -> (r ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c64 : index
  %bid = cake.block_id x
  %r0 = arith.muli %bid, %c32 : index
  %as = cake.alloc_smem : !cake.smem<@@NS@@x32x64xf32>
  %vs = cake.alloc_smem : !cake.smem<@@NS@@x64xf32>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  // Copy assignment: rows tid / 16 + 8 i (i < 4), columns 4 (tid mod 16); v by threads 0..15.
  %lrow0 = arith.divui %tid, %c16 : index
  %lq = arith.remui %tid, %c16 : index
  %lc = arith.muli %lq, %c4 : index
  %vcopy = arith.cmpi ult, %tid, %c16 : index
  %vc = arith.muli %tid, %c4 : index
  // Compute assignment: row tid / 4, columns 16 (tid mod 4) .. + 16.
  %crow = arith.divui %tid, %c4 : index
  %cq = arith.remui %tid, %c4 : index
  %cc = arith.muli %cq, %c16 : index
"""
TAIL = """  %total = cake.warp_reduce sum %res {lanes = 4 : i64} : f32
  %lead = arith.cmpi eq, %cq, %c0 : index
  scf.if %lead {
    %grow = arith.addi %r0, %crow : index
    cake.store %total, %y[%grow] masked : f32, !cake.tensor<[R], f32>
  }
  cake.return
}
"""


def issue(tile, slot, sfx, ind="  ", ns="@@NS@@"):
    p = ind
    return (f"{p}%k{sfx} = arith.muli {tile}, %c64 : index\n"
            f"{p}scf.for %i = %c0 to %c4 step %c1 {{\n"
            f"{p}  %i8 = arith.muli %i, %c8 : index\n"
            f"{p}  %lr = arith.addi %lrow0, %i8 : index\n"
            f"{p}  %gr = arith.addi %r0, %lr : index\n"
            f"{p}  %gk = arith.addi %k{sfx}, %lc : index\n"
            f"{p}  cake.cp_async %a[%gr, %gk], %as[{slot}, %lr, %lc], bytes 16 masked : !cake.tensor<[R, K], f32>, !cake.smem<{ns}x32x64xf32>\n"
            f"{p}}}\n"
            f"{p}scf.if %vcopy {{\n"
            f"{p}  %gv = arith.addi %k{sfx}, %vc : index\n"
            f"{p}  cake.cp_async %v[%gv], %vs[{slot}, %vc], bytes 16 masked : !cake.tensor<[K], f32>, !cake.smem<{ns}x64xf32>\n"
            f"{p}}}\n")


def compute(slot, ind="    "):
    p = ind
    out = ""
    for j in range(4):
        out += (f"{p}%ccol{j} = arith.addi %cc, %c{[0, 4, 8, 12][j]} : index\n"
                if j else f"{p}%ccol0 = arith.addi %cc, %c0 : index\n")
    out = out.replace("%c12", "%c12")
    for j in range(4):
        out += (f"{p}%ra{j} = cake.load %as[{slot}, %crow, %ccol{j}] : !cake.smem<@@NS@@x32x64xf32> -> vector<4xf32>\n"
                f"{p}%rv{j} = cake.load %vs[{slot}, %ccol{j}] : !cake.smem<@@NS@@x64xf32> -> vector<4xf32>\n"
                f"{p}%pr{j} = arith.mulf %ra{j}, %rv{j} : vector<4xf32>\n")
    out += (f"{p}%s01 = arith.addf %pr0, %pr1 : vector<4xf32>\n"
            f"{p}%s23 = arith.addf %pr2, %pr3 : vector<4xf32>\n"
            f"{p}%s03 = arith.addf %s01, %s23 : vector<4xf32>\n"
            f"{p}%dot = vector.reduction <add>, %s03 : vector<4xf32> into f32\n"
            f"{p}%acc2 = arith.addf %acc, %dot : f32\n")
    return out


def build(name, ns, body):
    t = HEAD + body + TAIL
    t = t.replace("  %c64 = arith.constant 64 : index\n",
                  "  %c12 = arith.constant 12 : index\n  %c64 = arith.constant 64 : index\n")
    return fill(t, NAME=name, NS=ns)


def double_buffer(name, WAIT="    cake.cp_async.wait 1\n", BAR1="    cake.barrier\n",
                  BAR2="    cake.barrier\n", COMMIT="    cake.cp_async.commit\n", order="issue-first"):
    body = issue("%c0", "%c0", "p") + "  cake.cp_async.commit\n"
    loop = ("  %res = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {\n"
            "    %nk = arith.addi %kt, %c1 : index\n"
            "    %ns = arith.remui %nk, %c2 : index\n")
    iss = issue("%nk", "%ns", "n", ind="    ") + COMMIT
    if order == "issue-first":
        loop += iss + WAIT + BAR1
    else:
        loop += WAIT + BAR1 + iss
    loop += ("    %slot = arith.remui %kt, %c2 : index\n" + compute("%slot") + BAR2 +
             "    scf.yield %acc2 : f32\n"
             "  }\n"
             "  cake.cp_async.wait 0\n")
    return build(name, 2, body + loop)


SZ = "R=4096,K=4096"
kernel("correct", C, "rowdot_double_buffer",
       "none (correct)",
       "classic double buffering: issue tile kt + 1, commit, wait 1 (tile kt landed for this thread),\n"
       "barrier (every thread's copies visible), compute, barrier (slot free for the next refill).",
       SZ, double_buffer("rowdot_double_buffer"))
kernel("buggy", C, "rowdot_barrier_without_wait",
       "race (wrong result): threads read tiles whose cp.async copies are still in flight",
       "the loop relies on the block barrier alone, as if it waited for cp.async groups; the only\n"
       "cp.async.wait is after the loop.",
       SZ, double_buffer("rowdot_barrier_without_wait", WAIT=""))
kernel("buggy", C, "rowdot_wait_in_thread0",
       "race (wrong result): only thread 0's copies are known to have landed at the barrier",
       "cp.async.wait runs in thread 0 only, before the barrier; a wait covers the executing thread's\n"
       "own groups.",
       SZ, double_buffer("rowdot_wait_in_thread0", WAIT=("    scf.if %t0 {\n"
                                                        "      cake.cp_async.wait 1\n"
                                                        "    }\n")))
kernel("buggy", C, "rowdot_wait_without_barrier",
       "race (wrong result): each thread waited for its own copies, but reads other threads' copies",
       "cp.async.wait 1 with no block barrier after it before the cross-thread reads.",
       SZ, double_buffer("rowdot_wait_without_barrier", BAR1=""))
kernel("buggy", C, "rowdot_no_trailing_barrier",
       "race (wrong result): the refill of the next slot overwrites a tile slower warps still read",
       "the barrier after the compute is missing: iteration kt + 1 refills the slot read in iteration kt.",
       SZ, double_buffer("rowdot_no_trailing_barrier", BAR2=""))
kernel("buggy", C, "rowdot_wait_after_barrier",
       "race (wrong result): the barrier passes before the copies of other threads are waited",
       "the order of cp.async.wait and the barrier is swapped.",
       SZ, double_buffer("rowdot_wait_after_barrier", WAIT="    cake.barrier\n",
                         BAR1="    cake.cp_async.wait 1\n"))
kernel("buggy", C, "rowdot_wait1_before_issue",
       "race (wrong result): wait 1 leaves tile kt, the newest group at that point, in flight",
       "the next tile is issued after the wait, so the wait must be 0; it kept the double-buffered 1.",
       SZ, double_buffer("rowdot_wait1_before_issue", order="wait-first"))
kernel("buggy", C, "rowdot_conditional_commit",
       "race (wrong result): in the last iteration no group is committed, so wait 1 leaves the last\n"
       "//      tile in flight",
       "the commit is skipped when there is no next tile; the group counting of wait 1 assumed one\n"
       "commit per iteration.",
       SZ, double_buffer("rowdot_conditional_commit",
                         COMMIT=("    %more = arith.cmpi ult, %nk, %ktiles : index\n"
                                 "    scf.if %more {\n"
                                 "      cake.cp_async.commit\n"
                                 "    }\n")))
kernel("buggy", C, "rowdot_no_commit",
       "race (wrong result): uncommitted copies are not covered by any wait group",
       "the copies of the next tile are never committed (no cp.async.commit in the loop).",
       SZ, double_buffer("rowdot_no_commit", COMMIT=""))


def ring3(name, prologue=2, wait=1, refill_offset=2, mod=3, ns=3):
    body = "  scf.for %pt = %c0 to %c@@PRO@@ step %c1 {\n" + issue("%pt", "%pt", "p", ind="    ", ns="@@NS@@") + \
           "    cake.cp_async.commit\n  }\n"
    body = body.replace("@@PRO@@", str(prologue))
    loop = ("  %res = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {\n"
            f"    cake.cp_async.wait {wait}\n"
            "    cake.barrier\n"
            f"    %nk = arith.addi %kt, %c{refill_offset} : index\n"
            f"    %ns = arith.remui %nk, %c{mod} : index\n"
            + issue("%nk", "%ns", "n", ind="    ") +
            "    cake.cp_async.commit\n"
            f"    %slot = arith.remui %kt, %c{mod} : index\n" + compute("%slot") +
            "    scf.yield %acc2 : f32\n"
            "  }\n"
            "  cake.cp_async.wait 0\n")
    return build(name, ns, body + loop)


kernel("correct", C, "rowdot_ring3_two_ahead",
       "none (correct)",
       "a 3-slot ring, two tiles ahead: wait 1 (tile kt landed), barrier (copies visible; slot of\n"
       "kt - 1 free), refill slot (kt + 2) mod 3, compute tile kt.",
       SZ, ring3("rowdot_ring3_two_ahead"))
kernel("buggy", C, "rowdot_ring3_three_ahead",
       "race (wrong result): the refill of tile kt + 3 lands in slot kt mod 3, the slot read right after",
       "three tiles in flight on a 3-slot ring (the prologue and the look-ahead were sized for 4 slots).",
       SZ, ring3("rowdot_ring3_three_ahead", prologue=3, wait=2, refill_offset=3))

SINGLE = issue("%kt", "%c0", "one", ind="    ")
kernel("correct", C, "rowdot_single_stage",
       "none (correct)",
       "no overlap: copy tile kt, commit, wait 0, barrier, compute, barrier.",
       SZ, build("rowdot_single_stage", 1,
                 "  %res = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {\n"
                 + SINGLE + "    cake.cp_async.commit\n    cake.cp_async.wait 0\n    cake.barrier\n"
                 + compute("%c0") + "    cake.barrier\n    scf.yield %acc2 : f32\n  }\n"))
kernel("buggy", C, "rowdot_single_stage_refill_early",
       "race (wrong result): tile kt + 1's copies overwrite the single buffer while other warps still\n"
       "//      read tile kt",
       "one buffer and no barrier between the reads of tile kt and the copies of tile kt + 1.",
       SZ, build("rowdot_single_stage_refill_early", 1,
                 "  %res = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {\n"
                 + SINGLE + "    cake.cp_async.commit\n    cake.cp_async.wait 0\n    cake.barrier\n"
                 + compute("%c0") + "    scf.yield %acc2 : f32\n  }\n"))


def split_issue(tile, slot, sfx, ind):
    t = issue(tile, slot, sfx, ind=ind)
    cut = t.index(f"{ind}scf.if %vcopy")
    return t[:cut] + f"{ind}cake.cp_async.commit\n" + t[cut:] + f"{ind}cake.cp_async.commit\n"


def split_commits(name, pending):
    body = split_issue("%c0", "%c0", "p", "  ")
    loop = ("  %res = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {\n"
            "    %nk = arith.addi %kt, %c1 : index\n"
            "    %ns = arith.remui %nk, %c2 : index\n"
            + split_issue("%nk", "%ns", "n", "    ") +
            f"    cake.cp_async.wait {pending}\n"
            "    cake.barrier\n"
            "    %slot = arith.remui %kt, %c2 : index\n" + compute("%slot") +
            "    cake.barrier\n"
            "    scf.yield %acc2 : f32\n"
            "  }\n"
            "  cake.cp_async.wait 0\n")
    return build(name, 2, body + loop)


kernel("correct", C, "rowdot_split_commits_wait2",
       "none (correct)",
       "A and v copies are committed as two groups per tile, so the wait that leaves the next tile in\n"
       "flight is wait 2.",
       SZ, split_commits("rowdot_split_commits_wait2", 2))
kernel("buggy", C, "rowdot_split_commits_wait3",
       "race (wrong result): wait 3 leaves the v group of tile kt in flight",
       "two commits per tile (A, then v) but the wait count allows three pending groups.",
       SZ, split_commits("rowdot_split_commits_wait3", 3))

PRIV = """  %pc0 = arith.addi %cc, %c0 : index
  %pc1 = arith.addi %cc, %c4 : index
  %pc2 = arith.addi %cc, %c8 : index
  %pc3 = arith.addi %cc, %c12 : index
  %prow = arith.addi %r0, %crow : index
  %res = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
    %slot = arith.remui %kt, %c2 : index
    %k0 = arith.muli %kt, %c64 : index
    // Each thread copies exactly the 64 bytes of A it reads itself: no barrier needed.
    %g0 = arith.addi %k0, %pc0 : index
    cake.cp_async %a[%prow, %g0], %as[%slot, %crow, %pc0], bytes 16 masked : !cake.tensor<[R, K], f32>, !cake.smem<2x32x64xf32>
    %g1 = arith.addi %k0, %pc1 : index
    cake.cp_async %a[%prow, %g1], %as[%slot, %crow, %pc1], bytes 16 masked : !cake.tensor<[R, K], f32>, !cake.smem<2x32x64xf32>
    %g2 = arith.addi %k0, %pc2 : index
    cake.cp_async %a[%prow, %g2], %as[%slot, %crow, %pc2], bytes 16 masked : !cake.tensor<[R, K], f32>, !cake.smem<2x32x64xf32>
    %g3 = arith.addi %k0, %pc3 : index
    cake.cp_async %a[%prow, %g3], %as[%slot, %crow, %pc3], bytes 16 masked : !cake.tensor<[R, K], f32>, !cake.smem<2x32x64xf32>
    cake.cp_async.commit
    // v straight from global (masked), while the copies fly.
    %v0 = cake.load %v[%g0] masked : !cake.tensor<[K], f32> -> vector<4xf32>
    %v1 = cake.load %v[%g1] masked : !cake.tensor<[K], f32> -> vector<4xf32>
    %v2 = cake.load %v[%g2] masked : !cake.tensor<[K], f32> -> vector<4xf32>
    %v3 = cake.load %v[%g3] masked : !cake.tensor<[K], f32> -> vector<4xf32>
    cake.cp_async.wait 0
    %a0 = cake.load %as[%slot, %crow, %pc0] : !cake.smem<2x32x64xf32> -> vector<4xf32>
    %a1 = cake.load %as[%slot, %crow, %pc1] : !cake.smem<2x32x64xf32> -> vector<4xf32>
    %a2 = cake.load %as[%slot, %crow, %pc2] : !cake.smem<2x32x64xf32> -> vector<4xf32>
    %a3 = cake.load %as[%slot, %crow, %pc3] : !cake.smem<2x32x64xf32> -> vector<4xf32>
    %p0 = arith.mulf %a0, %v0 : vector<4xf32>
    %p1 = arith.mulf %a1, %v1 : vector<4xf32>
    %p2 = arith.mulf %a2, %v2 : vector<4xf32>
    %p3 = arith.mulf %a3, %v3 : vector<4xf32>
    %s01 = arith.addf %p0, %p1 : vector<4xf32>
    %s23 = arith.addf %p2, %p3 : vector<4xf32>
    %s03 = arith.addf %s01, %s23 : vector<4xf32>
    %dot = vector.reduction <add>, %s03 : vector<4xf32> into f32
    %acc2 = arith.addf %acc, %dot : f32
    scf.yield %acc2 : f32
  }
"""
kernel("correct", C, "rowdot_private_chunks",
       "none (correct)",
       "every thread copies only the chunks it reads itself, so cp.async.wait 0 alone (no barrier)\n"
       "orders its reads after its copies.",
       SZ, build("rowdot_private_chunks", 2, PRIV))
