"""Class `shape`: kernels right for some problem sizes and wrong for others (ragged edges, short
rows, partial warps and warpgroups)."""
from common import fill, kernel
import arrivals as A
import async_proxy as X
import cp_async as CP
import gemm as G
import pipeline as P

C = "shape"

# --- softmax over rows of any length, one warp per row -------------------------------------------
SM = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 8)>} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n = cake.problem_size "N"
  %bid = cake.block_id x
  %w = cake.warp_id
  %lane = cake.lane_id
  %r0 = arith.muli %bid, %c8 : index
  %row = arith.addi %r0, %w : index
@@BODY@@  cake.return
}
"""
LOOP_MAX = """  %lmax = scf.for %j = %lane to %n step %c32 iter_args(%m = %ninf) -> (f32) {
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %m2 = arith.maximumf %m, %v : f32
    scf.yield %m2 : f32
  }
"""
REST = """  %lsum = scf.for %j = %lane to %n step %c32 iter_args(%s = %zero) -> (f32) {
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %d = arith.subf %v, %max : f32
    %e = math.exp %d : f32
    %s2 = arith.addf %s, %e : f32
    scf.yield %s2 : f32
  }
  %sum = cake.warp_reduce sum %lsum : f32
  %rcp = arith.divf %one, %sum : f32
  scf.for %j = %lane to %n step %c32 {
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %d = arith.subf %v, %max : f32
    %e = math.exp %d : f32
    %p = arith.mulf %e, %rcp : f32
    cake.store %p, %y[%row, %j] masked : f32, !cake.tensor<[M, N], f32>
  }
"""
kernel("correct", C, "short_rows_softmax",
       "none (correct)",
       "lanes past the row's end keep -inf (no loop iterations) and still take part in the warp\n"
       "reductions, so any N works, N < 32 included.",
       "M=100000,N=20", fill(SM, NAME="short_rows_softmax",
                             BODY=LOOP_MAX + "  %max = cake.warp_reduce max %lmax : f32\n" + REST))
kernel("buggy", C, "short_rows_softmax_lane_mask",
       "wrong-result-for-some-shapes: N=20 runs the shuffles of the max in a partial warp (undefined:\n"
       "//      garbage or a hang); N >= 32 works",
       "the warp reduction sits under 'lane < N' to skip idle lanes, which is every lane only when N >= 32.",
       "M=100000,N=20", fill(SM, NAME="short_rows_softmax_lane_mask",
                             BODY=LOOP_MAX + ("  %active = arith.cmpi ult, %lane, %n : index\n"
                                              "  %max = scf.if %active -> (f32) {\n"
                                              "    %mx = cake.warp_reduce max %lmax : f32\n"
                                              "    scf.yield %mx : f32\n"
                                              "  } else {\n"
                                              "    scf.yield %ninf : f32\n"
                                              "  }\n") + REST))
CHUNK = """  %nr = arith.ceildivui %n, %c32 : index
  %nround = arith.muli %nr, %c32 : index
  %lmax = scf.for %j0 = %c0 to %nround step %c32 iter_args(%m = %ninf) -> (f32) {
    %j = arith.addi %j0, %lane : index
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %m2 = arith.maximumf %m, %v : f32
    scf.yield %m2 : f32
  }
  %max = cake.warp_reduce max %lmax : f32
  %lsum = scf.for %j0 = %c0 to %nround step %c32 iter_args(%s = %zero) -> (f32) {
    %j = arith.addi %j0, %lane : index
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %d = arith.subf %v, %max : f32
    %e = math.exp %d : f32
    %s2 = arith.addf %s, %e : f32
    scf.yield %s2 : f32
  }
  %sum = cake.warp_reduce sum %lsum : f32
  %rcp = arith.divf %one, %sum : f32
  scf.for %j0 = %c0 to %nround step %c32 {
    %j = arith.addi %j0, %lane : index
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %d = arith.subf %v, %max : f32
    %e = math.exp %d : f32
    %p = arith.mulf %e, %rcp : f32
    cake.store %p, %y[%row, %j] masked : f32, !cake.tensor<[M, N], f32>
  }
"""
kernel("buggy", C, "chunked_softmax_zero_pad",
       "wrong-result-for-some-shapes: N=100 adds exp(0 - max) for each of the 28 padded lanes to the\n"
       "//      sum (and a 0 to the max of all-negative rows); N=128 works",
       "32-wide chunks with masked loads, but the pad is the default 0 instead of -inf.",
       "M=100000,N=100", fill(SM, NAME="chunked_softmax_zero_pad", BODY=CHUNK))
kernel("correct", C, "chunked_softmax_ninf_pad",
       "none (correct)",
       "32-wide chunks with masked loads padded with -inf: padded lanes add nothing.",
       "M=100000,N=100", fill(SM, NAME="chunked_softmax_ninf_pad",
                              BODY=CHUNK.replace("masked : !cake.tensor<[M, N], f32> -> f32\n    %m2",
                                                 "masked pad(%ninf : f32) : !cake.tensor<[M, N], f32> -> f32\n    %m2")
                              .replace("masked : !cake.tensor<[M, N], f32> -> f32\n    %d = arith.subf %v, %max : f32\n    %e = math.exp %d : f32\n    %s2",
                                       "masked pad(%ninf : f32) : !cake.tensor<[M, N], f32> -> f32\n    %d = arith.subf %v, %max : f32\n    %e = math.exp %d : f32\n    %s2")))
ARGMAX = LOOP_MAX.replace("%lmax", "%lbest") + """  %lane32 = arith.index_cast %lane : index to i32
  %active = arith.cmpi ult, %lane, %n : index
  scf.if %active {
    %best, %arg = cake.warp_arg_reduce argmax %lbest, %lane32 : f32, i32
    %l0 = arith.cmpi eq, %lane, %c0 : index
    scf.if %l0 {
      %argf = arith.sitofp %arg : i32 to f32
      cake.store %argf, %y[%row, %c0] masked : f32, !cake.tensor<[M, N], f32>
    }
  }
"""
kernel("buggy", C, "short_rows_argmax_lane_mask",
       "wrong-result-for-some-shapes: N=12 runs warp_arg_reduce in a partial warp (undefined); N >= 32 works",
       "the arg-reduction is guarded by 'lane < N'.",
       "M=100000,N=12", fill(SM, NAME="short_rows_argmax_lane_mask", BODY=ARGMAX))

# --- a scaled copy over a 1-D tensor -------------------------------------------------------------
AXPY = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"},
    %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (@@GRID@@)>} {
  %c4 = arith.constant 4 : index
  %c1024 = arith.constant 1024 : index
  %bid = cake.block_id x
  %tid = cake.thread_id x
  %base = arith.muli %bid, %c1024 : index
  %off = arith.muli %tid, %c4 : index
  %i = arith.addi %base, %off : index
  %av = vector.broadcast %alpha : f32 to vector<4xf32>
  %a = cake.load %x[%i] @@MASK@@: !cake.tensor<[N], f32> -> vector<4xf32>
  %b = cake.load %y[%i] @@MASK@@: !cake.tensor<[N], f32> -> vector<4xf32>
  %ax = arith.mulf %a, %av : vector<4xf32>
  %s = arith.addf %ax, %b : vector<4xf32>
  cake.store %s, %y[%i] @@MASK@@: vector<4xf32>, !cake.tensor<[N], f32>
  cake.return
}
"""
kernel("correct", C, "axpy_masked",
       "none (correct)",
       "masked accesses and a ceildiv grid cover the ragged tail.",
       "N=1000004", fill(AXPY, NAME="axpy_masked", GRID="n ceildiv 1024", MASK="masked "))
kernel("buggy", C, "axpy_unmasked_tail",
       "wrong-result-for-some-shapes: N=1000004 reads and writes past the end in the last block\n"
       "//      (illegal address or corruption); N=1048576 works",
       "the accesses are not masked but the grid rounds up.",
       "N=1000004", fill(AXPY, NAME="axpy_unmasked_tail", GRID="n ceildiv 1024", MASK=""))
kernel("buggy", C, "axpy_grid_floor",
       "wrong-result-for-some-shapes: N=1000004 leaves the last 580 elements unchanged; N=1048576 works",
       "the grid is N floordiv 1024, so the ragged tail gets no block.",
       "N=1000004", fill(AXPY, NAME="axpy_grid_floor", GRID="n floordiv 1024", MASK="masked "))

# --- a bounds check around an mbarrier arrival -------------------------------------------------
kernel("buggy", C, "split_barrier_arrival_in_bounds_only",
       "wrong-result-for-some-shapes: N=1000000 hangs the last block (only 64 of 256 threads arrive);\n"
       "//      N=1048576 works",
       "threads past N skip their arrival on a barrier that counts the whole block.",
       "N=1000000", A.split("split_barrier_arrival_in_bounds_only",
                            arrive=("  %nsz = cake.problem_size \"N\"\n"
                                    "  %inb = arith.cmpi ult, %g, %nsz : index\n"
                                    "  scf.if %inb {\n"
                                    "    cake.mbarrier.arrive %bar[%c0] : !cake.mbarriers<1>\n"
                                    "  }\n")))

# --- a block reduction over rows of N <= 256 ---------------------------------------------------
BSUM = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m)>} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %n = cake.problem_size "N"
  %part = cake.alloc_smem : !cake.smem<256xf32>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %lane = cake.lane_id
  %warp = cake.warp_id
  %s = scf.for %j = %tid to %n step %c256 iter_args(%a = %zero) -> (f32) {
    %v = cake.load %x[%row, %j] masked : !cake.tensor<[M, N], f32> -> f32
    %a2 = arith.addf %a, %v : f32
    scf.yield %a2 : f32
  }
@@WRITE@@  cake.barrier
  // Warp w sums slots 32 w .. 32 w + 31, warp 0 then sums the 8 warp totals.
  %w32 = arith.muli %warp, %c32 : index
  %slot = arith.addi %w32, %lane : index
  %p = cake.load %part[%slot] : !cake.smem<256xf32> -> f32
  %ws = cake.warp_reduce sum %p : f32
  cake.barrier
  %l0 = arith.cmpi eq, %lane, %c0 : index
  scf.if %l0 {
    cake.store %ws, %part[%warp] : f32, !cake.smem<256xf32>
  }
  cake.barrier
  %w0 = arith.cmpi eq, %warp, %c0 : index
  scf.if %w0 {
    %c8 = arith.constant 8 : index
    %in8 = arith.cmpi ult, %lane, %c8 : index
    %q = scf.if %in8 -> (f32) {
      %t = cake.load %part[%lane] : !cake.smem<256xf32> -> f32
      scf.yield %t : f32
    } else {
      scf.yield %zero : f32
    }
    %total = cake.warp_reduce sum %q : f32
    %t0 = arith.cmpi eq, %lane, %c0 : index
    scf.if %t0 {
      cake.store %total, %y[%row] masked : f32, !cake.tensor<[M], f32>
    }
  }
  cake.return
}
"""
kernel("correct", C, "row_sum_all_slots_written",
       "none (correct)",
       "every thread writes its partial (0 when the row has no element for it) before the tree.",
       "M=50000,N=100", fill(BSUM, NAME="row_sum_all_slots_written",
                             WRITE="  cake.store %s, %part[%tid] : f32, !cake.smem<256xf32>\n"))
kernel("buggy", C, "row_sum_partial_slots_written",
       "wrong-result-for-some-shapes: N=100 sums 156 slots nobody wrote (stale shared memory); N >= 256 works",
       "only threads with an element (tid < N) write their partial, but the reduction reads all 256 slots.",
       "M=50000,N=100", fill(BSUM, NAME="row_sum_partial_slots_written",
                             WRITE=("  %has = arith.cmpi ult, %tid, %n : index\n"
                                    "  scf.if %has {\n"
                                    "    cake.store %s, %part[%tid] : f32, !cake.smem<256xf32>\n"
                                    "  }\n")))
kernel("buggy", C, "row_sum_barrier_in_bounds_only",
       "wrong-result-for-some-shapes: N=100 hangs (threads >= N skip the barrier); N >= 256 works",
       "the partial's store and the barrier after it are both inside the 'tid < N' branch.",
       "M=50000,N=100", fill(BSUM, NAME="row_sum_barrier_in_bounds_only",
                             WRITE=("  %has = arith.cmpi ult, %tid, %n : index\n"
                                    "  scf.if %has {\n"
                                    "    cake.store %s, %part[%tid] : f32, !cake.smem<256xf32>\n"
                                    "    cake.barrier\n"
                                    "  }\n")).replace("  }\n  cake.barrier\n  // Warp w", "  }\n  // Warp w"))

# --- wgmma skipped by warps past a ragged M ----------------------------------------------------
RAGW = X.castmm("castmm_skip_rows_past_m")
old = RAGW[RAGW.index("    cake.wgmma.fence\n"):RAGW.index("    cake.barrier\n    scf.yield %a4")]
new_body = ("    %warp = cake.warp_id\n"
            "    %w16 = arith.muli %warp, %c16 : index\n"
            "    %wrow = arith.addi %m0, %w16 : index\n"
            "    %mdim = cake.problem_size \"M\"\n"
            "    %live = arith.cmpi ult, %wrow, %mdim : index\n"
            "    %a4 = scf.if %live -> (vector<32xf32>) {\n" +
            "".join("  " + l + "\n" for l in old.rstrip("\n").split("\n")) +
            "      scf.yield %a4 : vector<32xf32>\n"
            "    } else {\n"
            "      scf.yield %acc0 : vector<32xf32>\n"
            "    }\n")
new_body = new_body.replace("      %a4 = cake.wgmma", "      %a4r = cake.wgmma").replace("      scf.yield %a4 : vector<32xf32>\n    } else",
                                                                                        "      scf.yield %a4r : vector<32xf32>\n    } else")
RAGW = RAGW.replace(old, new_body)
kernel("buggy", C, "castmm_skip_rows_past_m",
       "wrong-result-for-some-shapes: M=1000 leaves warp 3 of the last row block out of the wgmma\n"
       "//      (a warpgroup-collective .sync.aligned op: hang or undefined); M=1024 works",
       "warps whose 16 rows lie past M skip the wgmma block, so a ragged M splits the warpgroup.",
       "M=1000,N=4096,K=4096", RAGW)

# --- unmasked copies and stores on ragged edges -------------------------------------------------
CPUN = CP.double_buffer("rowdot_cp_unmasked_k_tail").replace(" bytes 16 masked :", " bytes 16 :")
kernel("buggy", C, "rowdot_cp_unmasked_k_tail",
       "wrong-result-for-some-shapes: K=1000 copies the next row's elements (and past the end of the\n"
       "//      tensor in the last rows) into the ragged last k tile; K=1024 works",
       "the cp.async copies of the k tiles are not masked, but K need not be a multiple of 64.",
       "R=4096,K=1000", CPUN)
GUN = G.gemm("gemm_unmasked_epilogue").replace("cake.wgmma.store %acc, %c[%mrow, %n0] masked :",
                                               "cake.wgmma.store %acc, %c[%mrow, %n0] :")
kernel("buggy", C, "gemm_unmasked_epilogue",
       "wrong-result-for-some-shapes: M=1000 or N=1000 stores past the edge (illegal address or other\n"
       "//      rows overwritten); multiples of 128 work",
       "the epilogue's wgmma.store is not masked; TMA's zero fill covers only the loads.",
       "M=1000,N=1000,K=4096", GUN)
PFLOOR = P.pp("persistent_rows_floor_count").replace("%some = arith.ceildivui %left, %nblocks : index",
                                                      "%some = arith.divui %left, %nblocks : index")
kernel("buggy", C, "persistent_rows_floor_count",
       "wrong-result-for-some-shapes: M=100000 (3125 row tiles on 264 blocks) never computes 221 tiles;\n"
       "//      M=264 * 32 * 12 works",
       "a persistent block's tile count is floor((tiles - bid) / grid) instead of the ceiling.",
       "M=100000,K=4096", PFLOOR)
