"""Class `control-flow`: scf.while loops, dynamic bounds, and exits with work still in flight."""
from common import fill, kernel
import tiles as T

C = "control-flow"
SZ = "M=4096,N=4000"

kernel("buggy", C, "tiles_for_no_final_wait",
       "race (wrong result, intermittent): the block exits while its last TMA store still reads shared\n"
       "//      memory, which the next block on the SM may overwrite",
       "the store group is waited only at the top of each iteration of a loop with dynamic bounds; the\n"
       "last iteration's group is never waited before the kernel ends.",
       SZ, T.tiles("tiles_for_no_final_wait", EPI=""))
kernel("buggy", C, "tiles_for_final_wait1",
       "race (wrong result, intermittent): the last group is left in flight at exit",
       "the epilogue waits with pending 1 (as if one group could stay in flight), which leaves the last\n"
       "TMA store reading shared memory when the block exits.",
       SZ, T.tiles("tiles_for_final_wait1", EPI=("  scf.if %t0 {\n"
                                                  "    cake.tma.store_wait 1\n"
                                                  "  }\n")))
EPI_FULL = ("  %nrem = arith.remui %ndim, %c32 : index\n"
            "  %full = arith.cmpi eq, %nrem, %c0 : index\n"
            "  %wlast = arith.andi %t0, %full : i1\n"
            "  scf.if %wlast {\n"
            "    cake.tma.store_wait 0\n"
            "  }\n")
kernel("buggy", C, "tiles_for_final_wait_full_tiles_only",
       "wrong-result-for-some-shapes (intermittent): N=4000 leaves the last store group in flight at\n"
       "//      exit; N=4096 waits",
       "the final wait sits under a condition that holds only when N is a multiple of the tile (the\n"
       "ragged case was meant to be handled elsewhere), so ragged shapes exit with the group in flight.",
       SZ, T.tiles("tiles_for_final_wait_full_tiles_only", EPI=EPI_FULL))


def while_loop(loop):
    head = "  scf.for %j = %c0 to %ntiles step %c1 {\n"
    assert loop.startswith(head)
    body = loop[len(head):]
    assert body.endswith("  }\n")
    body = body[:-4].replace("%j,", "%jj,").replace("%j ", "%jj ")
    return ("  %jend = scf.while (%j = %c0) : (index) -> index {\n"
            "    %go = arith.cmpi ult, %j, %ntiles : index\n"
            "    scf.condition(%go) %j : index\n"
            "  } do {\n"
            "  ^bb0(%jj: index):\n" + body +
            "    %jn = arith.addi %jj, %c1 : index\n"
            "    scf.yield %jn : index\n"
            "  }\n")


WHILE = while_loop(T.LOOP_FOR)
kernel("correct", C, "tiles_while_final_wait",
       "none (correct)",
       "the tile loop is an scf.while; wait + barrier before each reuse and wait 0 after the loop.",
       SZ, T.tiles("tiles_while_final_wait", LOOP=WHILE))
kernel("buggy", C, "tiles_while_no_final_wait",
       "race (wrong result, intermittent): the last TMA store is in flight when the block exits",
       "an scf.while tile loop with no wait for the last store group after it.",
       SZ, T.tiles("tiles_while_no_final_wait", LOOP=WHILE, EPI=""))
kernel("buggy", C, "tiles_while_barrier_only",
       "race (wrong result): the tile is rewritten while the previous TMA store reads it",
       "an scf.while tile loop that reuses the buffer after only a block barrier.",
       SZ, T.tiles("tiles_while_barrier_only", LOOP=WHILE, REUSE="    cake.barrier\n"))

# --- variable-length rows through a pipeline, the consumer loop an scf.while --------------------
VARLEN = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, K], f32, box [32, 32]> {cake.name = "tx", cake.describes = "x"},
    %lens: !cake.tensor<[G], i32> {cake.name = "lens"},
    %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M", "K", "G"],
                grid = affine_map<()[m, k, g] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %kfloor = arith.divui %kdim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  // The number of valid 32-column tiles of this block's rows (a ragged batch).
  %len32 = cake.load %lens[%bid] masked : !cake.tensor<[G], i32> -> i32
  %len = arith.index_cast %len32 : i32 to index
  %mytiles = arith.minui %len, %ktiles : index
  %buf = cake.alloc_smem : !cake.smem<2x32x32xf32>
  %pipe = cake.pipeline.create consumers 128 : !cake.pipeline<2>
  %tid = cake.thread_id x
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to @@PBOUND@@ step %c1 {
          cake.pipeline.producer_acquire %pipe[%kt] : !cake.pipeline<2>
          cake.pipeline.producer_commit %pipe[%kt], tx_bytes 4096 : !cake.pipeline<2>
          %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<2>
          %k0 = arith.muli %kt, %c32 : index
          cake.tma.load %tx[%m0, %k0], %buf[%slot], %pipe[%kt]
              : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<2x32x32xf32>, !cake.pipeline<2>
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
      %res:2 = scf.while (%kt = %c0, %acc = %zero) : (index, f32) -> (index, f32) {
        %go = arith.cmpi ult, %kt, @@CBOUND@@ : index
        scf.condition(%go) %kt, %acc : index, f32
      } do {
      ^bb0(%it: index, %s: f32):
        cake.pipeline.consumer_wait %pipe[%it] : !cake.pipeline<2>
        %slot = cake.pipeline.slot %pipe[%it] : !cake.pipeline<2>
        %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<2x32x32xf32> -> vector<4xf32>
        %v = arith.addf %v0, %v1 : vector<4xf32>
        %part = vector.reduction <add>, %v : vector<4xf32> into f32
        cake.pipeline.consumer_release %pipe[%it] : !cake.pipeline<2>
        %s2 = arith.addf %s, %part : f32
        %nk = arith.addi %it, %c1 : index
        scf.yield %nk, %s2 : index, f32
      }
@@DRAIN@@      %total = cake.warp_reduce sum %res#1 {lanes = 4 : i64} : f32
      %mrow = arith.addi %m0, %row : index
      %lead = arith.cmpi eq, %quad, %c0 : index
      scf.if %lead {
        cake.store %total, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
      }
    }
  }
  cake.return
}
"""
DRAIN = ("      scf.for %d = %res#0 to %ktiles step %c1 {\n"
         "        cake.pipeline.consumer_wait %pipe[%d] : !cake.pipeline<2>\n"
         "        cake.pipeline.consumer_release %pipe[%d] : !cake.pipeline<2>\n"
         "      }\n")
SZV = "M=8192,K=4096,G=256"
kernel("correct", C, "varlen_while_matching_bounds",
       "none (correct)",
       "the consumers' scf.while stops at the block's valid tile count, and the producer loads exactly\n"
       "that many tiles.",
       SZV, fill(VARLEN, NAME="varlen_while_matching_bounds", PBOUND="%mytiles", CBOUND="%mytiles", DRAIN=""))
kernel("correct", C, "varlen_while_then_drain",
       "none (correct)",
       "the producer streams every tile; the consumers stop summing at the valid count and then drain\n"
       "(wait + release) the remaining tiles so the producer never stalls.",
       SZV, fill(VARLEN, NAME="varlen_while_then_drain", PBOUND="%ktiles", CBOUND="%mytiles", DRAIN=DRAIN))
kernel("buggy", C, "varlen_producer_ignores_length",
       "hang for blocks whose valid length is shorter than K by more than 2 tiles (the producer's\n"
       "//      acquire waits for releases the consumers, already done, never make)",
       "the producer streams all K tiles but the consumers' scf.while stops at the valid length.",
       SZV, fill(VARLEN, NAME="varlen_producer_ignores_length", PBOUND="%ktiles", CBOUND="%mytiles", DRAIN=""))
kernel("buggy", C, "loop_bounds_ceil_vs_floor",
       "wrong-result-for-some-shapes: K=1000 drops the ragged last tile (and the block may exit with its\n"
       "//      TMA load in flight); K=1024 works",
       "the producer loops to ceil(K / 32), the consumers' loop to floor(K / 32).",
       "M=8192,K=1000,G=256", fill(VARLEN, NAME="loop_bounds_ceil_vs_floor", PBOUND="%ktiles", CBOUND="%kfloor", DRAIN=""))

# --- a single-slot TMA loop in scf.while with the parity carried by the loop ----------------------
WRING = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, N], f32, box [8, 32]> {cake.name = "tx", cake.describes = "x"},
    %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 8)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %ndim = cake.problem_size "N"
  %ntiles = arith.ceildivui %ndim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c8 : index
  %buf = cake.alloc_smem : !cake.smem<8x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %r = arith.divui %tid, %c16 : index
  %q = arith.remui %tid, %c16 : index
  %col = arith.muli %q, %c2 : index
  %res:3 = scf.while (%j = %c0, %ph = %c0, %acc = %zero) : (index, index, f32) -> (index, index, f32) {
    %go = arith.cmpi ult, %j, %ntiles : index
    scf.condition(%go) %j, %ph, %acc : index, index, f32
  } do {
  ^bb0(%jj: index, %p: index, %s: f32):
    %n0 = arith.muli %jj, %c32 : index
    scf.if %t0 {
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 1024 : !cake.mbarriers<1>
      cake.tma.load %tx[%m0, %n0], %buf[], %bar[%c0]
          : !cake.tma<[M, N], f32, box [8, 32]>, !cake.smem<8x32xf32>, !cake.mbarriers<1>
    }
    cake.mbarrier.wait %bar[%c0], %p : !cake.mbarriers<1>
    %v = cake.load %buf[%r, %col] : !cake.smem<8x32xf32> -> vector<2xf32>
    %vs = vector.reduction <add>, %v : vector<2xf32> into f32
    %s2 = arith.addf %s, %vs : f32
@@TAIL@@    %jn = arith.addi %jj, %c1 : index
    scf.yield %jn, @@NEXTPH@@, %s2 : index, index, f32
  }
  %tot = cake.warp_reduce sum %res#2 {lanes = 16 : i64} : f32
  %lead = arith.cmpi eq, %q, %c0 : index
  scf.if %lead {
    %grow = arith.addi %m0, %r : index
    cake.store %tot, %y[%grow] masked : f32, !cake.tensor<[M], f32>
  }
  cake.return
}
"""
TAIL_OK = ("    cake.barrier\n"
           "    %pn = arith.xori %p, %c1 : index\n")
kernel("correct", C, "while_tma_loop_carried_parity",
       "none (correct)",
       "an scf.while over tiles carries the parity and flips it every iteration; a block barrier keeps\n"
       "the refill behind every thread's read.",
       "M=4096,N=3000", fill(WRING, NAME="while_tma_loop_carried_parity", TAIL=TAIL_OK, NEXTPH="%pn"))
kernel("buggy", C, "while_tma_loop_parity_never_flips",
       "race (wrong result): from the second tile on the wait passes on the completed phase 0",
       "the carried parity is yielded unchanged: the scf.while waits on parity 0 every iteration.",
       "M=4096,N=3000", fill(WRING, NAME="while_tma_loop_parity_never_flips", TAIL="    cake.barrier\n", NEXTPH="%p"))
kernel("buggy", C, "while_tma_loop_no_barrier",
       "race (wrong result): thread 0 refills the slot while slower warps still read the previous tile",
       "the scf.while loop flips the parity but has no barrier between the reads and the next TMA load.",
       "M=4096,N=3000", fill(WRING, NAME="while_tma_loop_no_barrier",
                             TAIL="    %pn = arith.xori %p, %c1 : index\n", NEXTPH="%pn"))

# --- a tiled reduction in scf.while ------------------------------------------------------------
WDOT = """cake.kernel @@@NAME@@(
    %a: !cake.tensor<[R, K], f32> {cake.name = "a"},
    %v: !cake.tensor<[K], f32> {cake.name = "v"},
    %y: !cake.tensor<[R], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["R", "K"],
                grid = affine_map<()[r, k] -> (r ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %stage = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %rbase = arith.muli %bid, %c128 : index
  %row = arith.addi %rbase, %tid : index
  %rev = arith.subi %c127, %tid : index
  %res:2 = scf.while (%k = %c0, %acc = %zero) : (index, f32) -> (index, f32) {
    %go = arith.cmpi ult, %k, %kdim : index
    scf.condition(%go) %k, %acc : index, f32
  } do {
  ^bb0(%k0: index, %s: f32):
    %g = arith.addi %k0, %tid : index
    %x = cake.load %v[%g] masked : !cake.tensor<[K], f32> -> f32
    cake.store %x, %stage[%tid] : f32, !cake.smem<128xf32>
    cake.barrier
    %kk = arith.addi %k0, %rev : index
    %w = cake.load %stage[%rev] : !cake.smem<128xf32> -> f32
    %e = cake.load %a[%row, %kk] masked : !cake.tensor<[R, K], f32> -> f32
    %p = arith.mulf %w, %e : f32
    %s2 = arith.addf %s, %p : f32
@@SECOND@@    %kn = arith.addi %k0, %c128 : index
    scf.yield %kn, %s2 : index, f32
  }
  cake.store %res#1, %y[%row] masked : f32, !cake.tensor<[R], f32>
  cake.return
}
"""
kernel("correct", C, "while_staged_dot_two_barriers",
       "none (correct)",
       "an scf.while k loop stages 128 entries of v per step, with a barrier after the stores and one\n"
       "after the reads.",
       "R=5000,K=3000", fill(WDOT, NAME="while_staged_dot_two_barriers", SECOND="    cake.barrier\n"))
kernel("buggy", C, "while_staged_dot_one_barrier",
       "race (wrong result): the next step's stores overwrite entries other warps are still reading",
       "the missing second barrier of a tiled loop, in an scf.while.",
       "R=5000,K=3000", fill(WDOT, NAME="while_staged_dot_one_barrier", SECOND=""))

# --- a block barrier inside a loop whose trip count each thread reads from memory ---------------
WDIV = """cake.kernel @@@NAME@@(
    %cnt: !cake.tensor<[N], i32> {cake.name = "cnt"},
    %x: !cake.tensor<[N, 64], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %stage = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c128 : index
  %g = arith.addi %base, %tid : index
  %n32 = cake.load %cnt[%g] masked : !cake.tensor<[N], i32> -> i32
  %n = arith.index_cast %n32 : i32 to index
  %mine = arith.minui %n, %c64 : index
  %nb1 = arith.addi %tid, %c1 : index
  %nb = arith.remui %nb1, %c128 : index
  %res:2 = scf.while (%i = %c0, %acc = %zero) : (index, f32) -> (index, f32) {
    %go = arith.cmpi ult, %i, @@BOUND@@ : index
    scf.condition(%go) %i, %acc : index, f32
  } do {
  ^bb0(%ii: index, %s: f32):
    %v = cake.load %x[%g, %ii] masked : !cake.tensor<[N, 64], f32> -> f32
    cake.store %v, %stage[%tid] : f32, !cake.smem<128xf32>
    cake.barrier
    %w = cake.load %stage[%nb] : !cake.smem<128xf32> -> f32
    %p = arith.mulf %v, %w : f32
    %s2 = arith.addf %s, %p : f32
    cake.barrier
    %in = arith.addi %ii, %c1 : index
    scf.yield %in, %s2 : index, f32
  }
  cake.store %res#1, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
"""
kernel("buggy", C, "while_barrier_per_thread_count",
       "undefined (a bar.sync some threads of a warp skip); expected a hang, but the H200 completes it\n"
       "//      (warps whose threads all left the loop count as arrived) and the result is still data-dependent",
       "a block barrier inside an scf.while whose trip count each thread loads from memory.",
       "N=100000", fill(WDIV, NAME="while_barrier_per_thread_count", BOUND="%mine"))
kernel("correct", C, "while_barrier_uniform_count",
       "none (correct)",
       "the same loop with a uniform trip count (64 steps, elements past the thread's count read as\n"
       "part of the row), so every thread reaches every barrier.",
       "N=100000", fill(WDIV, NAME="while_barrier_uniform_count", BOUND="%c64"))
