"""Class `tma-store`: shared buffers read by TMA stores (bulk async groups) and reused."""
from common import fill, kernel
import tiles as T

C = "tma-store"
SZ = "M=4096,N=4000"

kernel("correct", C, "scale_tiles_wait_then_barrier",
       "none (correct)",
       "before rewriting the tile, the issuing thread waits for its store group (wait 0) and a block\n"
       "barrier tells the others.",
       SZ, T.tiles("scale_tiles_wait_then_barrier"))
kernel("correct", C, "scale_tiles_double_buffer",
       "none (correct)",
       "two tiles alternate; wait 1 (at most the previous group pending) before rewriting the tile the\n"
       "group before it read.",
       SZ, T.tiles("scale_tiles_double_buffer", nbuf=2, pend=1))
kernel("buggy", C, "scale_tiles_barrier_only",
       "race (wrong result): the next tile's stores overwrite the buffer while the bulk store still reads it",
       "the buffer is reused after only a block barrier: nothing waits for the TMA store group to\n"
       "finish reading it (the wait 0 comes only after the loop).",
       SZ, T.tiles("scale_tiles_barrier_only", REUSE="    cake.barrier\n"))
kernel("buggy", C, "scale_tiles_wait_wrong_thread",
       "race (wrong result): thread 32 has no bulk groups, its wait returns at once",
       "the wait for the store group runs in thread 32, but thread 0 issued and committed the stores.",
       SZ, T.tiles("scale_tiles_wait_wrong_thread", REUSE=("    scf.if %t32 {\n"
                                                           "      cake.tma.store_wait 0\n"
                                                           "    }\n"
                                                           "    cake.barrier\n")))
kernel("buggy", C, "scale_tiles_wait_after_writes",
       "race (wrong result): the other threads write the buffer before thread 0 waits",
       "thread 0 waits for the previous store group only after every thread rewrote the tile.",
       SZ, T.tiles("scale_tiles_wait_after_writes", REUSE="    cake.barrier\n",
                   AFTER_WRITE=("    scf.if %t0 {\n"
                                "      cake.tma.store_wait 0\n"
                                "    }\n")))
kernel("buggy", C, "scale_tiles_single_buffer_wait1",
       "race (wrong result): wait 1 leaves the previous group, which reads this buffer, in flight",
       "a double-buffered wait count (1) on a single buffer.",
       SZ, T.tiles("scale_tiles_single_buffer_wait1", pend=1))
kernel("buggy", C, "scale_tiles_double_buffer_wait2",
       "race (wrong result): wait 2 leaves the group of two tiles ago, which reads this buffer, in flight",
       "two buffers but the wait allows two groups pending.",
       SZ, T.tiles("scale_tiles_double_buffer_wait2", nbuf=2, pend=2))
kernel("buggy", C, "scale_tiles_double_buffer_same_slot",
       "race (wrong result): both iterations write buffer 0 while the previous group reads it",
       "a double-buffered tile with wait 1, but the buffer index is the constant 0 (the selector is\n"
       "computed and not used).",
       SZ, T.tiles("scale_tiles_double_buffer_same_slot", nbuf=2, pend=1, IDX="%c0, "))
ROT = ("    %who = arith.remui %j, %c32 : index\n"
       "    %mine = arith.cmpi eq, %tid, %who : index\n")
kernel("buggy", C, "scale_tiles_rotating_issuer",
       "race (wrong result): thread 0's wait covers only its own groups; stores issued by threads\n"
       "//      1..31 may still read the tile when it is rewritten (and at kernel exit)",
       "the thread issuing the store rotates with the tile (j mod 32), but the wait before reuse and at\n"
       "the end runs in thread 0 only.",
       SZ, T.tiles("scale_tiles_rotating_issuer", PUBLISH=ROT, ISSUER="%mine"))

# --- a tile loaded by TMA, transformed in place, stored by TMA, buffer refilled by TMA -----------
INPLACE = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, N], f32, box [16, 32]> {cake.name = "tx", cake.describes = "x"},
    %y: !cake.tensor<[M, N], f32> {cake.name = "y"},
    %ty: !cake.tma<[M, N], f32, box [16, 32]> {cake.name = "ty", cake.describes = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 16)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %ndim = cake.problem_size "N"
  %ntiles = arith.ceildivui %ndim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c16 : index
  %buf = cake.alloc_smem : !cake.smem<16x32xf32>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  %r = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %col = arith.muli %q, %c4 : index
  scf.for %j = %c0 to %ntiles step %c1 {
    %n0 = arith.muli %j, %c32 : index
    %ph = arith.remui %j, %c2 : index
    scf.if %t0 {
@@BEFORE_LOAD@@      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 2048 : !cake.mbarriers<1>
      cake.tma.load %tx[%m0, %n0], %buf[], %bar[%c0]
          : !cake.tma<[M, N], f32, box [16, 32]>, !cake.smem<16x32xf32>, !cake.mbarriers<1>
    }
    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    %v = cake.load %buf[%r, %col] : !cake.smem<16x32xf32> -> vector<4xf32>
    %relu = arith.maximumf %v, %zero : vector<4xf32>
    cake.store %relu, %buf[%r, %col] : vector<4xf32>, !cake.smem<16x32xf32>
    cake.fence.proxy_async
    cake.barrier
    scf.if %t0 {
      cake.tma.store %buf[], %ty[%m0, %n0] : !cake.smem<16x32xf32>, !cake.tma<[M, N], f32, box [16, 32]>
      cake.tma.store_commit
    }
  }
  scf.if %t0 {
    cake.tma.store_wait 0
  }
  cake.return
}
"""
kernel("correct", C, "relu_inplace_wait_before_refill",
       "none (correct)",
       "the thread that issues both the TMA store and the next TMA load waits for its store group\n"
       "(wait 0) before the load refills the buffer.",
       "M=2000,N=4096", fill(INPLACE, NAME="relu_inplace_wait_before_refill",
                             BEFORE_LOAD="      cake.tma.store_wait 0\n"))
kernel("buggy", C, "relu_inplace_refill_during_store",
       "race (wrong result): the next tile's TMA load overwrites the buffer the previous TMA store is\n"
       "//      still reading",
       "nothing waits for the store group before the buffer is refilled by the next TMA load.",
       "M=2000,N=4096", fill(INPLACE, NAME="relu_inplace_refill_during_store", BEFORE_LOAD=""))
kernel("buggy", C, "relu_inplace_wait_keeps_one",
       "race (wrong result): wait 1 leaves the previous tile's store, which reads the buffer, in flight",
       "the refill waits with pending 1, as a double-buffered version would, on one buffer.",
       "M=2000,N=4096", fill(INPLACE, NAME="relu_inplace_wait_keeps_one",
                             BEFORE_LOAD="      cake.tma.store_wait 1\n"))
kernel("buggy", C, "scale_tiles_wait_no_barrier",
       "race (wrong result): threads other than 0 rewrite the tile without waiting for thread 0's wait",
       "the issuing thread waits for its store group, but no barrier follows, so the other threads do\n"
       "not wait for it before rewriting the tile.",
       SZ, T.tiles("scale_tiles_wait_no_barrier", REUSE=("    scf.if %t0 {\n"
                                                         "      cake.tma.store_wait 0\n"
                                                         "    }\n")))
kernel("buggy", C, "scale_tiles_store_before_barrier",
       "race (wrong result): the TMA store may read the tile before other threads wrote it",
       "thread 0 issues the TMA store right after its own fence, before the barrier that publishes the\n"
       "other threads' stores.",
       SZ, T.tiles("scale_tiles_store_before_barrier").replace(
           "    cake.fence.proxy_async\n    cake.barrier\n    scf.if %t0 {\n      cake.tma.store %tile[], %ty[%m0, %n0] : !cake.smem<32x32xf32>, !cake.tma<[M, N], f32, box [32, 32]>\n      cake.tma.store_commit\n    }\n",
           "    cake.fence.proxy_async\n    scf.if %t0 {\n      cake.tma.store %tile[], %ty[%m0, %n0] : !cake.smem<32x32xf32>, !cake.tma<[M, N], f32, box [32, 32]>\n      cake.tma.store_commit\n    }\n    cake.barrier\n"))
