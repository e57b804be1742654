"""Class `smem-bounds`: shared-memory indices past the buffer (the IR checks only a constant
mbarrier index and the total budget)."""
from common import fill, kernel
import cp_async as CP
import gemm as G
import ring as R

C = "smem-bounds"

# --- a 3-point stencil staged through shared memory ------------------------------------------
ST = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c255 = arith.constant 255 : index
  %c256 = arith.constant 256 : index
  %c257 = arith.constant 257 : index
  %third = arith.constant 0.333333343 : f32
  %zero = arith.constant 0.0 : f32
  %s = cake.alloc_smem : !cake.smem<@@SIZE@@xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
@@WRITE@@  cake.barrier
@@READ@@  %lc = arith.addf %l, %m : f32
  %lcr = arith.addf %lc, %r : f32
  %avg = arith.mulf %lcr, %third : f32
  cake.store %avg, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
"""
HALO_WRITE = """  %t1 = arith.addi %tid, %c1 : index
  cake.store %v, %s[%t1] : f32, !cake.smem<@@SIZE@@xf32>
  %first = arith.cmpi eq, %tid, %c0 : index
  scf.if %first {
    %inner = arith.cmpi ugt, %bid, %c0 : index
    %lv = scf.if %inner -> (f32) {
      %gl = arith.subi %g, %c1 : index
      %xl = cake.load %x[%gl] masked : !cake.tensor<[N], f32> -> f32
      scf.yield %xl : f32
    } else {
      scf.yield %zero : f32
    }
    cake.store %lv, %s[%c0] : f32, !cake.smem<@@SIZE@@xf32>
  }
  %last = arith.cmpi eq, %tid, %c255 : index
  scf.if %last {
    %gr = arith.addi %g, %c1 : index
    %xr = cake.load %x[%gr] masked : !cake.tensor<[N], f32> -> f32
    cake.store %xr, %s[%c257] : f32, !cake.smem<@@SIZE@@xf32>
  }
"""
HALO_READ = """  %t2 = arith.addi %tid, %c2 : index
  %l = cake.load %s[%tid] : !cake.smem<@@SIZE@@xf32> -> f32
  %m = cake.load %s[%t1] : !cake.smem<@@SIZE@@xf32> -> f32
  %r = cake.load %s[%t2] : !cake.smem<@@SIZE@@xf32> -> f32
"""
PLAIN_WRITE = "  cake.store %v, %s[%tid] : f32, !cake.smem<@@SIZE@@xf32>\n"
PLAIN_READ = """  %tl = arith.subi %tid, %c1 : index
  %tr = arith.addi %tid, %c1 : index
  %l = cake.load %s[%tl] : !cake.smem<@@SIZE@@xf32> -> f32
  %m = cake.load %s[%tid] : !cake.smem<@@SIZE@@xf32> -> f32
  %r = cake.load %s[%tr] : !cake.smem<@@SIZE@@xf32> -> f32
"""


def st(name, size, write, read):
    return fill(fill(ST, NAME=name, SIZE="@@SIZE@@", WRITE=write, READ=read), SIZE=size)


kernel("correct", C, "stencil_halo_buffer",
       "none (correct)",
       "the staged row has one halo element on each side (258 floats); threads 0 and 255 load them.",
       "N=1000000", st("stencil_halo_buffer", 258, HALO_WRITE, HALO_READ))
kernel("buggy", C, "stencil_halo_on_exact_buffer",
       "wrong result or illegal address: s[256] and s[257] lie past the 256-float buffer",
       "the halo layout (element i at i + 1, halos at 0 and 257) on a buffer sized for the block only.",
       "N=1000000", st("stencil_halo_on_exact_buffer", 256, HALO_WRITE, HALO_READ))
kernel("buggy", C, "stencil_neighbours_unclamped",
       "wrong result or illegal address: thread 0 reads s[-1] and thread 255 reads s[256]",
       "neighbours at tid - 1 and tid + 1 without a halo or a clamp at the block's edges.",
       "N=1000000", st("stencil_neighbours_unclamped", 256, PLAIN_WRITE, PLAIN_READ))

# --- a static index one past the end ---------------------------------------------------------
SENT = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["N"],
                grid = affine_map<()[n] -> (n ceildiv 256)>} {
  %c0 = arith.constant 0 : index
  %clast = arith.constant @@LASTIDX@@ : index
  %c256 = arith.constant 256 : index
  %s = cake.alloc_smem : !cake.smem<256xf32>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %base = arith.muli %bid, %c256 : index
  %g = arith.addi %base, %tid : index
  %v = cake.load %x[%g] masked : !cake.tensor<[N], f32> -> f32
  cake.store %v, %s[%tid] : f32, !cake.smem<256xf32>
  cake.barrier
  // Normalise by the block's last element.
  %last = cake.load %s[%clast] : !cake.smem<256xf32> -> f32
  %q = arith.divf %v, %last : f32
  cake.store %q, %y[%g] masked : f32, !cake.tensor<[N], f32>
  cake.return
}
"""
kernel("correct", C, "normalise_by_last_element",
       "none (correct)",
       "every thread reads s[255], the block's last staged element.",
       "N=1048576", fill(SENT, NAME="normalise_by_last_element", LASTIDX=255))
kernel("buggy", C, "normalise_by_static_index_past_end",
       "wrong result: s[256] is past the 256-float buffer (reads whatever lies behind it)",
       "a static index one past the end (the size instead of the last index).",
       "N=1048576", fill(SENT, NAME="normalise_by_static_index_past_end", LASTIDX=256))

# --- rings -------------------------------------------------------------------------------------
kernel("buggy", C, "cp_ring_mod4_over_3_slots",
       "wrong result or illegal address: slot 3 of a 3-slot ring lies past the buffers",
       "a cp.async ring indexed mod 4 over 3 stages (the modulus kept from a 4-stage version).",
       "R=4096,K=4096", CP.ring3("cp_ring_mod4_over_3_slots", mod=4, ns=3))
kernel("buggy", C, "pipeline4_over_3_stage_buffers",
       "race or wrong result: the slot of iteration 3 (mod 4) indexes stage 3 of 3-stage buffers",
       "a 4-stage pipeline whose stage buffers hold 3 stages.",
       "M=4096,N=4096,K=4096", G.gemm("pipeline4_over_3_stage_buffers", S=4, SA=3))
RING2 = R.ring("tma_ring_three_slots_two_buffers", S=3).replace("!cake.smem<3x32x32xf32>", "!cake.smem<2x32x32xf32>")
kernel("buggy", C, "tma_ring_three_slots_two_buffers",
       "hang or wrong result: slot 2's TMA copy writes past the 2-stage buffer, over the next\n"
       "//      allocation (the mbarriers)",
       "a hand-written ring of 3 slots (3 full and 3 empty barriers) over a buffer of 2 stages.",
       "M=4096,K=4096", RING2)
RINGE = R.ring("ring_empty_index_off_by_one", S=3).replace("%empty = arith.addi %slot, %c3 : index",
                                                           "%empty = arith.addi %slot, %c4 : index")
kernel("buggy", C, "ring_empty_index_off_by_one",
       "hang or undefined: slot 2's empty barrier is index 6, past the 6-barrier array; slots 0 and 1\n"
       "//      use barriers 4 and 5 and barrier 3 never sees an arrival",
       "the empty barriers are addressed at slot + S + 1 instead of slot + S.",
       "M=4096,K=4096", RINGE)

# --- cp.async copy rows past the tile ----------------------------------------------------------
ROWS5 = CP.double_buffer("cp_copy_rows_past_tile").replace("scf.for %i = %c0 to %c4 step %c1 {",
                                                            "scf.for %i = %c0 to %c5 step %c1 {")
ROWS5 = ROWS5.replace("  %c8 = arith.constant 8 : index\n", "  %c5 = arith.constant 5 : index\n  %c8 = arith.constant 8 : index\n", 1)
kernel("buggy", C, "cp_copy_rows_past_tile",
       "wrong result: rows 32..39 of a 32-row tile land in the next stage (and past the last one)",
       "the copy loop runs 5 row groups of 8 instead of 4.",
       "R=4096,K=4096", ROWS5)

# --- gemm: warpgroup row offset without the producer's warpgroup subtracted ---------------------
WGROW = G.gemm("wgmma_rows_from_warpgroup_id").replace("%wgm = arith.subi %wg, %c1 : index",
                                                         "%wgm = arith.addi %wg, %c0 : index")
kernel("buggy", C, "wgmma_rows_from_warpgroup_id",
       "wrong result: warpgroup 2 reads A rows 128..191 of a 128-row stage (the next stage, or past\n"
       "//      the buffer) and both groups store shifted rows",
       "the consumer's row offset is warpgroup_id * 64, forgetting that warpgroup 0 is the producer.",
       "M=4096,N=4096,K=4096", WGROW)

# --- per-warp scratch --------------------------------------------------------------------------
SCR = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[R, 2048], f32> {cake.name = "x"},
    %y: !cake.tensor<[R], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 512>, symbols = ["R"],
                grid = affine_map<()[r] -> (r)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %c1536 = arith.constant 1536 : index
  %scratch = cake.alloc_smem : !cake.smem<@@WARPS@@xf32>
  %tid = cake.thread_id x
  %row = cake.block_id x
  %warp = cake.warp_id
  %lane = cake.lane_id
  %a = cake.load %x[%row, %tid] masked : !cake.tensor<[R, 2048], f32> -> f32
  %i1 = arith.addi %tid, %c512 : index
  %b = cake.load %x[%row, %i1] masked : !cake.tensor<[R, 2048], f32> -> f32
  %i2 = arith.addi %tid, %c1024 : index
  %c = cake.load %x[%row, %i2] masked : !cake.tensor<[R, 2048], f32> -> f32
  %i3 = arith.addi %tid, %c1536 : index
  %d = cake.load %x[%row, %i3] masked : !cake.tensor<[R, 2048], f32> -> f32
  %ab = arith.maximumf %a, %b : f32
  %cd = arith.maximumf %c, %d : f32
  %m = arith.maximumf %ab, %cd : f32
  %wm = cake.warp_reduce max %m : f32
  %l0 = arith.cmpi eq, %lane, %c0 : index
  scf.if %l0 {
    cake.store %wm, %scratch[%warp] : f32, !cake.smem<@@WARPS@@xf32>
  }
  cake.barrier
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
@@FINAL@@    cake.store %best, %y[%row] masked : f32, !cake.tensor<[R], f32>
  }
  cake.return
}
"""
F16 = ("    %p0 = cake.load %scratch[%c0] : !cake.smem<16xf32> -> vector<4xf32>\n"
       "    %p1 = cake.load %scratch[%c4] : !cake.smem<16xf32> -> vector<4xf32>\n"
       "    %p2 = cake.load %scratch[%c8] : !cake.smem<16xf32> -> vector<4xf32>\n"
       "    %p3 = cake.load %scratch[%c12] : !cake.smem<16xf32> -> vector<4xf32>\n"
       "    %q01 = arith.maximumf %p0, %p1 : vector<4xf32>\n"
       "    %q23 = arith.maximumf %p2, %p3 : vector<4xf32>\n"
       "    %q = arith.maximumf %q01, %q23 : vector<4xf32>\n"
       "    %best = vector.reduction <maximumf>, %q : vector<4xf32> into f32\n")
F8 = ("    %p0 = cake.load %scratch[%c0] : !cake.smem<8xf32> -> vector<4xf32>\n"
      "    %p1 = cake.load %scratch[%c4] : !cake.smem<8xf32> -> vector<4xf32>\n"
      "    %q = arith.maximumf %p0, %p1 : vector<4xf32>\n"
      "    %best = vector.reduction <maximumf>, %q : vector<4xf32> into f32\n")
EXTRA = "  %c8 = arith.constant 8 : index\n  %c12 = arith.constant 12 : index\n"
kernel("correct", C, "row_max_scratch_per_warp",
       "none (correct)",
       "16 warps, 16 scratch slots: warp w writes slot w, thread 0 reduces all 16 after a barrier.",
       "R=20000", fill(SCR, NAME="row_max_scratch_per_warp", WARPS=16, FINAL=F16).replace(
           "  %c512 = arith.constant 512 : index\n", EXTRA + "  %c512 = arith.constant 512 : index\n"))
kernel("buggy", C, "row_max_scratch_for_8_warps",
       "wrong result: warps 8..15 write past the 8-float scratch buffer and their maxima are never read",
       "the per-warp scratch is sized for 8 warps (a 256-thread version) in a 512-thread block.",
       "R=20000", fill(SCR, NAME="row_max_scratch_for_8_warps", WARPS=8, FINAL=F8))

# --- a padded tile read past its row ----------------------------------------------------------
PAD = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, 32], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, 32], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M"],
                grid = affine_map<()[m] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c28 = arith.constant 28 : index
  %c32 = arith.constant 32 : index
  %tile = cake.alloc_smem : !cake.smem<32x32xf32, pad = 4>
  %tid = cake.thread_id x
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %r = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %col = arith.muli %q, %c4 : index
  %grow = arith.addi %m0, %r : index
  %v = cake.load %x[%grow, %col] masked : !cake.tensor<[M, 32], f32> -> vector<4xf32>
  cake.store %v, %tile[%r, %col] : vector<4xf32>, !cake.smem<32x32xf32, pad = 4>
  cake.barrier
  // Forward difference with the next 4 columns of the row.
@@NEXT@@  %w = cake.load %tile[%r, %ncol] : !cake.smem<32x32xf32, pad = 4> -> vector<4xf32>
  %d = arith.subf %w, %v : vector<4xf32>
  cake.store %d, %y[%grow, %col] masked : vector<4xf32>, !cake.tensor<[M, 32], f32>
  cake.return
}
"""
kernel("correct", C, "padded_tile_forward_difference",
       "none (correct)",
       "the next-columns index is clamped to 28 at the end of the 32-wide row.",
       "M=100000", fill(PAD, NAME="padded_tile_forward_difference",
                        NEXT="  %n4 = arith.addi %col, %c4 : index\n  %ncol = arith.minui %n4, %c28 : index\n"))
kernel("buggy", C, "padded_tile_read_into_pad",
       "wrong result: the last thread of each row reads columns 32..35, the row's padding",
       "the next-columns index col + 4 runs past the innermost extent (into the pad) for col = 28.",
       "M=100000", fill(PAD, NAME="padded_tile_read_into_pad",
                        NEXT="  %ncol = arith.addi %col, %c4 : index\n"))

# --- a 64x16 thread mapping on a 32x32 tile ------------------------------------------------------
MAP = PAD.replace("@@NEXT@@  %w = cake.load %tile[%r, %ncol] : !cake.smem<32x32xf32, pad = 4> -> vector<4xf32>\n  %d = arith.subf %w, %v : vector<4xf32>\n  cake.store %d, %y[%grow, %col]",
                  "  %w = cake.load %tile[%col, %r] : !cake.smem<32x32xf32, pad = 4> -> f32\n  %wv = vector.broadcast %w : f32 to vector<4xf32>\n  %d = arith.mulf %wv, %v : vector<4xf32>\n  cake.store %d, %y[%grow, %col]")
MAPBUG = MAP.replace("  %r = arith.divui %tid, %c8 : index\n  %q = arith.remui %tid, %c8 : index\n",
                     "  %r = arith.divui %tid, %c4 : index\n  %q = arith.remui %tid, %c4 : index\n")
kernel("buggy", C, "tile_mapping_64_rows_on_32",
       "wrong result or illegal address: rows 32..63 of the mapping are written past the 32-row tile",
       "the thread mapping (tid / 4, 4 (tid mod 4)) covers a 64x16 tile, the buffer is 32x32.",
       "M=100000", fill(MAPBUG, NAME="tile_mapping_64_rows_on_32"))

# --- over the budget -----------------------------------------------------------------------------
BIG = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[N, M], f32> {cake.name = "y"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (n ceildiv 128, m ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %tiles = cake.alloc_smem : !cake.smem<@@NT@@x128x128xf32, pad = 1>
  %tid = cake.thread_id x
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c128 : index
  %n0 = arith.muli %bn, %c128 : index
  %half = arith.divui %tid, %c128 : index
  %c = arith.remui %tid, %c128 : index
  %gc = arith.addi %n0, %c : index
  scf.for %r = %c0 to %c128 step %c2 {
    %rr = arith.addi %r, %half : index
    %gr = arith.addi %m0, %rr : index
    %v = cake.load %x[%gr, %gc] masked : !cake.tensor<[M, N], f32> -> f32
    cake.store %v, %tiles[%c0, %rr, %c] : f32, !cake.smem<@@NT@@x128x128xf32, pad = 1>
  }
  cake.barrier
  scf.for %r = %c0 to %c128 step %c2 {
    %rr = arith.addi %r, %half : index
    %v = cake.load %tiles[%c0, %c, %rr] : !cake.smem<@@NT@@x128x128xf32, pad = 1> -> f32
    %gr = arith.addi %n0, %rr : index
    %gcol = arith.addi %m0, %c : index
    cake.store %v, %y[%gr, %gcol] masked : f32, !cake.tensor<[N, M], f32>
  }
  cake.return
}
"""
kernel("correct", C, "transpose_padded_tile",
       "none (correct)",
       "one 128x129 f32 padded tile (66 KiB) for a transpose.",
       "M=8192,N=8192", fill(BIG, NAME="transpose_padded_tile", NT=1))
kernel("buggy", C, "transpose_four_padded_tiles_over_budget",
       "launch failure (too much shared memory; cake-translate refuses it too)",
       "a ring of four 128x129 f32 tiles = 264192 bytes, over the 227 KiB of sm_90a.",
       "M=8192,N=8192", fill(BIG, NAME="transpose_four_padded_tiles_over_budget", NT=4),
       note="does not compile: cake-translate rejects the shared-memory size (the bug itself)")
