"""Class `race`: plain shared-memory data races between threads (no async proxies)."""
from common import fill, kernel

C = "race"

# --- 32x32 transpose through a padded tile --------------------------------------------------------
TR = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N, M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (n ceildiv 32, m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %tile = cake.alloc_smem : !cake.smem<32x32xf32, pad = 1>
  %tid = cake.thread_id x
  %bx = cake.block_id x
  %by = cake.block_id y
  %tx = arith.remui %tid, %c32 : index
  %ty = arith.divui %tid, %c32 : index
  %m0 = arith.muli %by, %c32 : index
  %n0 = arith.muli %bx, %c32 : index
  %gc = arith.addi %n0, %tx : index
  scf.for %j = %c0 to %c4 step %c1 {
    %j8 = arith.muli %j, %c8 : index
    %r = arith.addi %ty, %j8 : index
    %gr = arith.addi %m0, %r : index
    %v = cake.load %x[%gr, %gc] masked : !cake.tensor<[M, N], f32> -> f32
    cake.store %v, %tile[%r, %tx] : f32, !cake.smem<32x32xf32, pad = 1>
  }
@@SYNC@@  %oc = arith.addi %m0, %tx : index
  scf.for %j = %c0 to %c4 step %c1 {
    %j8 = arith.muli %j, %c8 : index
    %r = arith.addi %ty, %j8 : index
    %v = cake.load %tile[%tx, %r] : !cake.smem<32x32xf32, pad = 1> -> f32
    %orow = arith.addi %n0, %r : index
    cake.store %v, %y[%orow, %oc] masked : f32, !cake.tensor<[N, M], f32>
  }
  cake.return
}
"""
SZT = "M=4000,N=3000"
kernel("correct", C, "transpose_tile_barrier", "none (correct)",
       "the tile is written by rows and read by columns, with a block barrier in between.",
       SZT, fill(TR, NAME="transpose_tile_barrier", SYNC="  cake.barrier\n"))
kernel("buggy", C, "transpose_tile_no_barrier",
       "race (wrong result): threads read columns other warps have not written yet",
       "no barrier between the row writes and the column reads of the tile.",
       SZT, fill(TR, NAME="transpose_tile_no_barrier", SYNC=""))
kernel("buggy", C, "transpose_tile_named_barrier_two_warps",
       "race (wrong result): warps 2..7 do not wait for anyone before reading the tile",
       "a named barrier over 64 threads (warps 0 and 1 only) stands in for the block barrier.",
       SZT, fill(TR, NAME="transpose_tile_named_barrier_two_warps",
                 SYNC=("  %warp = cake.warp_id\n"
                       "  %lo2 = arith.cmpi ult, %warp, %c2 : index\n"
                       "  scf.if %lo2 {\n"
                       "    cake.named_barrier 1, threads 64\n"
                       "  }\n")).replace("  %c4 = arith.constant 4 : index\n",
                                         "  %c2 = arith.constant 2 : index\n  %c4 = arith.constant 4 : index\n"))

# --- a block-wide sum: tree in shared memory -------------------------------------------------------
TREE = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %out: !cake.tensor<[B], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N", "B"],
                grid = affine_map<()[n, b] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %s = cake.alloc_smem : !cake.smem<256xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
@@LEVELS@@  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    %r = cake.load %s[%c0] : !cake.smem<256xf32> -> f32
    cake.store %r, %out[%bid] masked : f32, !cake.tensor<[B], f32>
  }
  cake.return
}
"""


def level(stride, sync=True):
    t = (f"  %in{stride} = arith.cmpi ult, %tid, %c{stride} : index\n"
         f"  scf.if %in{stride} {{\n"
         f"    %o{stride} = arith.addi %tid, %c{stride} : index\n"
         f"    %a{stride} = cake.load %s[%tid] : !cake.smem<256xf32> -> f32\n"
         f"    %b{stride} = cake.load %s[%o{stride}] : !cake.smem<256xf32> -> f32\n"
         f"    %p{stride} = arith.addf %a{stride}, %b{stride} : f32\n"
         f"    cake.store %p{stride}, %s[%tid] : f32, !cake.smem<256xf32>\n"
         f"  }}\n")
    return t + ("  cake.barrier\n" if sync else "")


WARP_FINISH = """  %w0 = arith.cmpi ult, %tid, %c32 : index
  scf.if %w0 {
    %q = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
    %qs = cake.warp_reduce sum %q : f32
    %l0 = arith.cmpi eq, %tid, %c0 : index
    scf.if %l0 {
      cake.store %qs, %s[%c0] : f32, !cake.smem<256xf32>
    }
  }
  cake.barrier
"""
kernel("correct", C, "block_sum_tree_then_shuffle", "none (correct)",
       "tree levels 128 and 64 and 32 with a barrier each, then warp 0 finishes with a shuffle reduction.",
       "N=1000000,B=3907", fill(TREE, NAME="block_sum_tree_then_shuffle",
                                 LEVELS=level(128) + level(64) + level(32) + WARP_FINISH))
kernel("buggy", C, "block_sum_warp_synchronous_tail",
       "race (wrong result): the last 5 levels run in warp 0 without any barrier or __syncwarp, so\n"
       "//      lanes may read partial sums their neighbours have not stored yet",
       "the classic warp-synchronous tail (no sync for strides below 32), invalid since Volta.",
       "N=1000000,B=3907", fill(TREE, NAME="block_sum_warp_synchronous_tail",
                                 LEVELS=level(128) + level(64) + level(32, False) + level(16, False) +
                                 level(8, False) + level(4, False) + level(2, False) + level(1, False)))
kernel("buggy", C, "block_sum_tree_level_unsynced",
       "race (wrong result): level 64 reads slots 64..127 that level 128 may still be writing",
       "the barrier after the first tree level is missing.",
       "N=1000000,B=3907", fill(TREE, NAME="block_sum_tree_level_unsynced",
                                 LEVELS=level(128, False) + level(64) + level(32) + WARP_FINISH))

# --- warp partials gathered by warp 0 ------------------------------------------------------------
PART = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, 1024], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, 1024], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M"],
                grid = affine_map<()[m] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %c768 = arith.constant 768 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %red = cake.alloc_smem : !cake.smem<8xf32>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %warp = cake.warp_id
  %lane = cake.lane_id
  %l0 = arith.cmpi eq, %lane, %c0 : index
  %i1 = arith.addi %tid, %c256 : index
  %i2 = arith.addi %tid, %c512 : index
  %i3 = arith.addi %tid, %c768 : index
  %v0 = cake.load %x[%row, %tid] masked : !cake.tensor<[M, 1024], f32> -> f32
  %v1 = cake.load %x[%row, %i1] masked : !cake.tensor<[M, 1024], f32> -> f32
  %v2 = cake.load %x[%row, %i2] masked : !cake.tensor<[M, 1024], f32> -> f32
  %v3 = cake.load %x[%row, %i3] masked : !cake.tensor<[M, 1024], f32> -> f32
  %m01 = arith.maximumf %v0, %v1 : f32
  %m23 = arith.maximumf %v2, %v3 : f32
  %m = arith.maximumf %m01, %m23 : f32
  %wm = cake.warp_reduce max %m : f32
  scf.if %l0 {
    cake.store %wm, %red[%warp] : f32, !cake.smem<8xf32>
  }
@@S1@@  %ra = cake.load %red[%c0] : !cake.smem<8xf32> -> vector<4xf32>
  %rb = cake.load %red[%c4] : !cake.smem<8xf32> -> vector<4xf32>
  %rab = arith.maximumf %ra, %rb : vector<4xf32>
  %max = vector.reduction <maximumf>, %rab : vector<4xf32> into f32
@@S2@@  %d0 = arith.subf %v0, %max : f32
  %e0 = math.exp %d0 : f32
  %d1 = arith.subf %v1, %max : f32
  %e1 = math.exp %d1 : f32
  %d2 = arith.subf %v2, %max : f32
  %e2 = math.exp %d2 : f32
  %d3 = arith.subf %v3, %max : f32
  %e3 = math.exp %d3 : f32
  %s01 = arith.addf %e0, %e1 : f32
  %s23 = arith.addf %e2, %e3 : f32
  %s = arith.addf %s01, %s23 : f32
  %ws = cake.warp_reduce sum %s : f32
  scf.if %l0 {
    cake.store %ws, %red[%warp] : f32, !cake.smem<8xf32>
  }
@@S3@@  %sa = cake.load %red[%c0] : !cake.smem<8xf32> -> vector<4xf32>
  %sb = cake.load %red[%c4] : !cake.smem<8xf32> -> vector<4xf32>
  %sab = arith.addf %sa, %sb : vector<4xf32>
  %sum = vector.reduction <add>, %sab : vector<4xf32> into f32
  %rcp = arith.divf %one, %sum : f32
  %p0 = arith.mulf %e0, %rcp : f32
  cake.store %p0, %y[%row, %tid] masked : f32, !cake.tensor<[M, 1024], f32>
  %p1 = arith.mulf %e1, %rcp : f32
  cake.store %p1, %y[%row, %i1] masked : f32, !cake.tensor<[M, 1024], f32>
  %p2 = arith.mulf %e2, %rcp : f32
  cake.store %p2, %y[%row, %i2] masked : f32, !cake.tensor<[M, 1024], f32>
  %p3 = arith.mulf %e3, %rcp : f32
  cake.store %p3, %y[%row, %i3] masked : f32, !cake.tensor<[M, 1024], f32>
  cake.return
}
"""
B = "  cake.barrier\n"
kernel("correct", C, "block_softmax_three_barriers", "none (correct)",
       "row softmax with block reductions through an 8-slot buffer: a barrier after the max partials,\n"
       "one before the buffer is reused for the sums, one after the sums.",
       "M=20000", fill(PART, NAME="block_softmax_three_barriers", S1=B, S2=B, S3=B))
kernel("buggy", C, "block_softmax_partials_unsynced",
       "race (wrong result): threads read the 8 warp maxima before all warps stored them",
       "no barrier between the per-warp partial stores and the reads of all partials.",
       "M=20000", fill(PART, NAME="block_softmax_partials_unsynced", S1="", S2=B, S3=B))
kernel("buggy", C, "block_softmax_buffer_reuse_unsynced",
       "race (wrong result): a fast warp overwrites its slot with its sum while slower warps still\n"
       "//      read the maxima",
       "the scratch buffer is reused for the sums without a barrier after the reads of the maxima.",
       "M=20000", fill(PART, NAME="block_softmax_buffer_reuse_unsynced", S1=B, S2="", S3=B))

# --- a histogram with plain read-modify-write on shared bins ------------------------------------
HIST = """cake.kernel @@@NAME@@(
    %keys: !cake.tensor<[N], i32> {cake.name = "keys"},
    %hist: !cake.tensor<[B, 64], i32> {cake.name = "hist"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N", "B"],
                grid = affine_map<()[n, b] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %bins = cake.alloc_smem : !cake.smem<64xi32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %few = arith.cmpi ult, %tid, %c64 : index
  scf.if %few {
    cake.store %zero, %bins[%tid] : i32, !cake.smem<64xi32>
  }
  cake.barrier
  %base = arith.muli %bid, %c256 : index
  %g = arith.addi %base, %tid : index
  %k = cake.load %keys[%g] masked : !cake.tensor<[N], i32> -> i32
  %ki = arith.index_cast %k : i32 to index
  %bin = arith.remui %ki, %c64 : index
  %old = cake.load %bins[%bin] : !cake.smem<64xi32> -> i32
  %new = arith.addi %old, %one : i32
  cake.store %new, %bins[%bin] : i32, !cake.smem<64xi32>
  cake.barrier
  scf.if %few {
    %h = cake.load %bins[%tid] : !cake.smem<64xi32> -> i32
    cake.store %h, %hist[%bid, %tid] masked : i32, !cake.tensor<[B, 64], i32>
  }
  cake.return
}
"""
kernel("buggy", C, "histogram_plain_increment",
       "race (wrong result): increments of one bin by threads of different warps are lost",
       "a shared-memory histogram with load/add/store instead of atomics (data-dependent bin).",
       "N=1000000,B=3907", fill(HIST, NAME="histogram_plain_increment"))

# --- a per-chunk scale broadcast through shared memory ---------------------------------------------
BC = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[C, 256], f32> {cake.name = "x"},
    %scale: !cake.tensor<[C], f32> {cake.name = "scale"},
    %y: !cake.tensor<[C, 256], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["C"],
                grid = affine_map<()[c] -> (c ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %sv = cake.alloc_smem : !cake.smem<1xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %c0base = arith.muli %bid, %c64 : index
  scf.for %j = %c0 to %c64 step %c1 {
    %ch = arith.addi %c0base, %j : index
    scf.if %t0 {
      %s = cake.load %scale[%ch] masked : !cake.tensor<[C], f32> -> f32
      cake.store %s, %sv[%c0] : f32, !cake.smem<1xf32>
    }
    cake.barrier
    %f = cake.load %sv[%c0] : !cake.smem<1xf32> -> f32
    %v = cake.load %x[%ch, %tid] masked : !cake.tensor<[C, 256], f32> -> f32
    %p = arith.mulf %v, %f : f32
    cake.store %p, %y[%ch, %tid] masked : f32, !cake.tensor<[C, 256], f32>
@@TAIL@@  }
  cake.return
}
"""
kernel("correct", C, "chunk_scale_broadcast", "none (correct)",
       "thread 0 stages each chunk's scale; barriers before the reads and before the next overwrite.",
       "C=100000", fill(BC, NAME="chunk_scale_broadcast", TAIL="    cake.barrier\n"))
kernel("buggy", C, "chunk_scale_broadcast_war",
       "race (wrong result): thread 0 overwrites the scale of chunk j while slower warps still read it",
       "no barrier between the reads of the broadcast value and thread 0's next write.",
       "C=100000", fill(BC, NAME="chunk_scale_broadcast_war", TAIL=""))

# --- Hillis-Steele inclusive scan of 256 values ----------------------------------------------------
SCAN = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %s = cake.alloc_smem : !cake.smem<256xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
@@STEPS@@  %r = cake.load %s[%tid] : !cake.smem<256xf32> -> f32
  cake.store %r, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
"""


def scan_step(d, mid=True):
    return (f"  %d{d} = arith.constant {d} : index\n"
            f"  %has{d} = arith.cmpi uge, %tid, %d{d} : index\n"
            f"  %own{d} = cake.load %s[%tid] : !cake.smem<256xf32> -> f32\n"
            f"  %add{d} = scf.if %has{d} -> (f32) {{\n"
            f"    %src{d} = arith.subi %tid, %d{d} : index\n"
            f"    %o{d} = cake.load %s[%src{d}] : !cake.smem<256xf32> -> f32\n"
            f"    %t{d} = arith.addf %own{d}, %o{d} : f32\n"
            f"    scf.yield %t{d} : f32\n"
            f"  }} else {{\n"
            f"    scf.yield %own{d} : f32\n"
            f"  }}\n" + ("  cake.barrier\n" if mid else "") +
            f"  cake.store %add{d}, %s[%tid] : f32, !cake.smem<256xf32>\n"
            "  cake.barrier\n")


STEPS_OK = "".join(scan_step(d) for d in (1, 2, 4, 8, 16, 32, 64, 128))
STEPS_BAD = "".join(scan_step(d, mid=False) for d in (1, 2, 4, 8, 16, 32, 64, 128))
kernel("correct", C, "block_scan_two_barriers_per_step", "none (correct)",
       "Hillis-Steele scan: each step reads, barrier, writes, barrier.",
       "N=1000000", fill(SCAN, NAME="block_scan_two_barriers_per_step", STEPS=STEPS_OK))
kernel("buggy", C, "block_scan_one_barrier_per_step",
       "race (wrong result): a thread overwrites s[tid] while thread tid + d (another warp for d >= 32)\n"
       "//      may still read it in the same step",
       "one barrier per scan step: the read of s[tid - d] and the write of s[tid] are not separated.",
       "N=1000000", fill(SCAN, NAME="block_scan_one_barrier_per_step", STEPS=STEPS_BAD))

# --- a k loop whose trailing barrier is skipped in the last iteration, then an epilogue ----------
EPI = """cake.kernel @@@NAME@@(
    %a: !cake.tensor<[R, K], f32> {cake.name = "a"},
    %v: !cake.tensor<[K], f32> {cake.name = "v"},
    %y: !cake.tensor<[R], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["R", "K"],
                grid = affine_map<()[r, k] -> (r ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c128 : index
  %stage = cake.alloc_smem : !cake.smem<128xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %rbase = arith.muli %bid, %c128 : index
  %row = arith.addi %rbase, %tid : index
  %rev = arith.subi %c127, %tid : index
  %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%s = %zero) -> (f32) {
    %k0 = arith.muli %kt, %c128 : index
    %g = arith.addi %k0, %tid : index
    %x = cake.load %v[%g] masked : !cake.tensor<[K], f32> -> f32
    cake.store %x, %stage[%tid] : f32, !cake.smem<128xf32>
    cake.barrier
    %kk = arith.addi %k0, %rev : index
    %w = cake.load %stage[%rev] : !cake.smem<128xf32> -> f32
    %e = cake.load %a[%row, %kk] masked : !cake.tensor<[R, K], f32> -> f32
    %p = arith.mulf %w, %e : f32
    %s2 = arith.addf %s, %p : f32
@@TRAIL@@    scf.yield %s2 : f32
  }
  // Epilogue: normalise by the block's mean result, staged through the same buffer.
  cake.store %acc, %stage[%tid] : f32, !cake.smem<128xf32>
  cake.barrier
  %o = cake.load %stage[%rev] : !cake.smem<128xf32> -> f32
  %q = arith.subf %acc, %o : f32
  cake.store %q, %y[%row] masked : f32, !cake.tensor<[R], f32>
  cake.return
}
"""
kernel("correct", C, "kloop_then_epilogue_reuse", "none (correct)",
       "the k loop ends every iteration with a barrier, so the epilogue may rewrite the staging buffer.",
       "R=5000,K=3000", fill(EPI, NAME="kloop_then_epilogue_reuse", TRAIL="    cake.barrier\n"))
kernel("buggy", C, "kloop_last_barrier_skipped",
       "race (wrong result): the epilogue's stores overwrite entries slower warps still read in the last\n"
       "//      k iteration",
       "the trailing barrier is skipped in the last iteration ('no refill follows'), but the epilogue\n"
       "reuses the buffer.",
       "R=5000,K=3000", fill(EPI, NAME="kloop_last_barrier_skipped",
                             TRAIL=("    %nk = arith.addi %kt, %c1 : index\n"
                                    "    %more = arith.cmpi ult, %nk, %ktiles : index\n"
                                    "    scf.if %more {\n"
                                    "      cake.barrier\n"
                                    "    }\n")))

# --- roles: arrival before the write ------------------------------------------------------------
ROLE = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, 128], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, 128], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M"],
                grid = affine_map<()[m] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %tile = cake.alloc_smem : !cake.smem<128xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 128 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "stage" warps [0, 4) {
      %v = cake.load %x[%row, %tid] masked : !cake.tensor<[M, 128], f32> -> f32
      %e = math.tanh %v : f32
@@STAGE@@    }
    cake.role "use" warps [4, 8) {
      %u = arith.subi %tid, %c128 : index
      %mirror = arith.subi %c127, %u : index
      cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<1>
      %a = cake.load %tile[%mirror] : !cake.smem<128xf32> -> f32
      cake.store %a, %y[%row, %u] masked : f32, !cake.tensor<[M, 128], f32>
    }
  }
  cake.return
}
"""
kernel("buggy", C, "roles_arrive_before_write",
       "race (wrong result): the reader may pass the barrier before the values are stored",
       "the staging role arrives on the barrier first and stores its value after the arrival.",
       "M=5000", fill(ROLE, NAME="roles_arrive_before_write",
                      STAGE=("      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>\n"
                             "      cake.store %e, %tile[%tid] : f32, !cake.smem<128xf32>\n")))
kernel("correct", C, "roles_write_then_arrive", "none (correct)",
       "the staging role stores, then arrives; the reader waits, then reads.",
       "M=5000", fill(ROLE, NAME="roles_write_then_arrive",
                      STAGE=("      cake.store %e, %tile[%tid] : f32, !cake.smem<128xf32>\n"
                             "      cake.mbarrier.arrive %bars[%c0] : !cake.mbarriers<1>\n")))
