"""Class `async-proxy`: generic-proxy shared-memory writes read by the async proxy (wgmma, TMA
store), wgmma operands and accumulators touched while the wgmma group is in flight."""
from common import fill, kernel
import gemm as G
import tiles as T

C = "async-proxy"

# --- f32 A converted to bf16 by the threads into swizzled smem, B by TMA, one warpgroup wgmma ----
CASTMM = """cake.kernel @@@NAME@@(
    %a: !cake.tensor<[M, K], f32> {cake.name = "a"},
    %b: !cake.tensor<[N, K], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, K], bf16, box [64, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (n ceildiv 64, m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c64 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c64 : index
  %n0 = arith.muli %bn, %c64 : index
  %as = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bs = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %bar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }
  cake.barrier
  // Thread t converts row t / 2, columns 32 (t mod 2) .. + 32 of the A tile.
  %r = arith.divui %tid, %c2 : index
  %half = arith.remui %tid, %c2 : index
  %cb = arith.muli %half, %c32 : index
  %grow = arith.addi %m0, %r : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    %k0 = arith.muli %kt, %c64 : index
    %ph = arith.remui %kt, %c2 : index
    scf.if %t0 {
      cake.mbarrier.arrive_expect_tx %bar[%c0], bytes 8192 : !cake.mbarriers<1>
      cake.tma.load %tb[%n0, %k0], %bs[], %bar[%c0]
          : !cake.tma<[N, K], bf16, box [64, 64], swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, !cake.mbarriers<1>
    }
@@FENCE_EARLY@@    scf.for %q = %c0 to %c8 step %c1 {
      %q4 = arith.muli %q, %c4 : index
      %col = arith.addi %cb, %q4 : index
      %gk = arith.addi %k0, %col : index
      %v = cake.load %a[%grow, %gk] masked : !cake.tensor<[M, K], f32> -> vector<4xf32>
      %h = arith.truncf %v : vector<4xf32> to vector<4xbf16>
      cake.store %h, %as[%r, %col] : vector<4xbf16>, !cake.smem<64x64xbf16, swizzle = 128>
    }
@@FENCE@@    cake.barrier
@@FENCE_LATE@@    cake.mbarrier.wait %bar[%c0], %ph : !cake.mbarriers<1>
    cake.wgmma.fence
    %a1 = cake.wgmma %as[%c0, %c0], %bs[%c0, %c0], %acc0
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    %a2 = cake.wgmma %as[%c0, %c16], %bs[%c0, %c16], %a1
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    %a3 = cake.wgmma %as[%c0, %c32], %bs[%c0, %c32], %a2
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    %a4 = cake.wgmma %as[%c0, %c48], %bs[%c0, %c48], %a3
        : !cake.smem<64x64xbf16, swizzle = 128>, !cake.smem<64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
@@WAIT@@    cake.barrier
    scf.yield %a4 : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %acc, %c[%m0, %n0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}
"""
FENCE = "    cake.fence.proxy_async\n"
SZC = "M=4096,N=4096,K=4096"


def castmm(name, FENCE_EARLY="", FENCE_=FENCE, FENCE_LATE="", WAIT="    cake.wgmma.wait 0\n"):
    return fill(CASTMM, NAME=name, FENCE_EARLY=FENCE_EARLY, FENCE=FENCE_, FENCE_LATE=FENCE_LATE, WAIT=WAIT)


kernel("correct", C, "castmm_fenced",
       "none (correct)",
       "every thread fences its generic stores (fence.proxy_async) before the barrier that precedes the\n"
       "wgmma reading them; wait 0 retires each group before the tile is rewritten.",
       SZC, castmm("castmm_fenced"))
kernel("buggy", C, "castmm_no_proxy_fence",
       "race (wrong result): wgmma (async proxy) may read stale bf16 tiles written by generic stores",
       "ordinary stores fill the A tile that wgmma reads, with no fence.proxy_async.",
       SZC, castmm("castmm_no_proxy_fence", FENCE_=""))
kernel("buggy", C, "castmm_fence_before_stores",
       "race (wrong result): the fence precedes the stores it should publish to the async proxy",
       "fence.proxy_async sits at the top of the iteration, before the conversion stores.",
       SZC, castmm("castmm_fence_before_stores", FENCE_EARLY=FENCE, FENCE_=""))
kernel("buggy", C, "castmm_fence_one_thread_after_barrier",
       "race (wrong result): only thread 0's stores are ordered for the async proxy",
       "the fence runs in thread 0 after the barrier instead of in every writing thread before it.",
       SZC, castmm("castmm_fence_one_thread_after_barrier", FENCE_="",
                   FENCE_LATE=("    scf.if %t0 {\n"
                               "      cake.fence.proxy_async\n"
                               "    }\n")))
kernel("buggy", C, "castmm_no_wait_in_loop",
       "race (wrong result): the next iteration's stores and TMA load overwrite A and B while the\n"
       "//      wgmma group still reads them",
       "the wgmma group is committed but never waited inside the loop (only after it).",
       SZC, castmm("castmm_no_wait_in_loop", WAIT=""))
kernel("buggy", C, "castmm_wait1_single_buffer",
       "race (wrong result): wait 1 leaves the group reading A and B in flight while they are rewritten",
       "one group kept in flight (wait 1), as a double-buffered loop would, over single buffers.",
       SZC, castmm("castmm_wait1_single_buffer", WAIT="    cake.wgmma.wait 1\n"))

# --- the pipelined GEMM's epilogue ---------------------------------------------------------------
SZ = "M=4096,N=4096,K=4096"
kernel("buggy", C, "gemm_wait1_no_final_wait",
       "race (wrong result): the epilogue stores accumulators of a wgmma group still in flight",
       "the loop's wait 1 keeps the last group in flight and no wait 0 follows the loop (the wait in\n"
       "the loop precedes the store in program order).",
       SZ, G.gemm("gemm_wait1_no_final_wait", S=4, consumers=2, AFTER=G.after_lag1(4), FINAL=""))
kernel("buggy", C, "gemm_scale_before_final_wait",
       "race (wrong result): the accumulator registers are read before the last group retires",
       "the epilogue scales the accumulator (a register read) before wgmma.wait 0.",
       SZ, G.gemm("gemm_scale_before_final_wait", S=4, consumers=2, AFTER=G.after_lag1(4),
                  FINAL=("      %halfv = arith.constant dense<5.000000e-01> : vector<64xf32>\n"
                         "      %scaled = arith.mulf %acc, %halfv : vector<64xf32>\n"
                         "      cake.wgmma.wait 0\n"), OUT="%scaled"))
kernel("correct", C, "gemm_scale_after_final_wait",
       "none (correct)",
       "wait 1 in the loop, wait 0 after it, then the epilogue scales and stores the accumulator.",
       SZ, G.gemm("gemm_scale_after_final_wait", S=4, consumers=2, AFTER=G.after_lag1(4),
                  FINAL=("      cake.wgmma.wait 0\n"
                         "      %halfv = arith.constant dense<5.000000e-01> : vector<64xf32>\n"
                         "      %scaled = arith.mulf %acc, %halfv : vector<64xf32>\n"), OUT="%scaled"))

# --- TMA stores of tiles written with ordinary stores ---------------------------------------------
kernel("buggy", C, "scale_tiles_no_proxy_fence",
       "race (wrong result): the TMA store may read the tile before the generic stores are visible to it",
       "no fence.proxy_async between the threads' stores and the TMA store.",
       "M=4096,N=4000", T.tiles("scale_tiles_no_proxy_fence", FENCE_=""))
kernel("buggy", C, "scale_tiles_fence_issuer_only",
       "race (wrong result): only the issuing thread's own stores are ordered before the TMA store",
       "the fence runs in the issuing thread after the barrier instead of in every writing thread.",
       "M=4096,N=4000", T.tiles("scale_tiles_fence_issuer_only", FENCE_="",
                                ISSUER="%t0").replace(
           "    scf.if %t0 {\n      cake.tma.store %tile",
           "    scf.if %t0 {\n      cake.fence.proxy_async\n      cake.tma.store %tile"))

# --- bf16 conversion through stmatrix, then a TMA store ------------------------------------------
STM = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, N], bf16> {cake.name = "y"},
    %ty: !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128> {cake.name = "ty", cake.describes = "y"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (n ceildiv 64, m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c64 : index
  %n0 = arith.muli %bn, %c64 : index
  %tile = cake.alloc_smem : !cake.smem<64x64xbf16, swizzle = 128>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %warp = cake.warp_id
  %lane = cake.lane_id
  // Warp w owns rows 16 w .. 16 w + 15. Lane t holds rows g = t / 4 and g + 8, columns 2 (t mod 4)
  // (+1) and +8 of each 16x16 block; lane l addresses row l mod 8 of matrix l / 8.
  %wr = arith.muli %warp, %c16 : index
  %g = arith.divui %lane, %c4 : index
  %tq = arith.remui %lane, %c4 : index
  %q2 = arith.muli %tq, %c2 : index
  %gr0 = arith.addi %m0, %wr : index
  %gr1 = arith.addi %gr0, %g : index
  %gr2 = arith.addi %gr1, %c8 : index
  %l8 = arith.remui %lane, %c8 : index
  %lm = arith.divui %lane, %c8 : index
  %lodd = arith.remui %lm, %c2 : index
  %lhi = arith.divui %lane, %c16 : index
  %lodd8 = arith.muli %lodd, %c8 : index
  %lhi8 = arith.muli %lhi, %c8 : index
  %sr0 = arith.addi %wr, %l8 : index
  %srow = arith.addi %sr0, %lodd8 : index
  scf.for %cb = %c0 to %c4 step %c1 {
    %col0 = arith.muli %cb, %c16 : index
    %gc0 = arith.addi %n0, %col0 : index
    %gc1 = arith.addi %gc0, %q2 : index
    %gc2 = arith.addi %gc1, %c8 : index
    %p0 = cake.load %x[%gr1, %gc1] masked : !cake.tensor<[M, N], f32> -> vector<2xf32>
    %p1 = cake.load %x[%gr2, %gc1] masked : !cake.tensor<[M, N], f32> -> vector<2xf32>
    %p2 = cake.load %x[%gr1, %gc2] masked : !cake.tensor<[M, N], f32> -> vector<2xf32>
    %p3 = cake.load %x[%gr2, %gc2] masked : !cake.tensor<[M, N], f32> -> vector<2xf32>
    %h0 = arith.truncf %p0 : vector<2xf32> to vector<2xbf16>
    %h1 = arith.truncf %p1 : vector<2xf32> to vector<2xbf16>
    %h2 = arith.truncf %p2 : vector<2xf32> to vector<2xbf16>
    %h3 = arith.truncf %p3 : vector<2xf32> to vector<2xbf16>
    %h01 = vector.shuffle %h0, %h1 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
    %h23 = vector.shuffle %h2, %h3 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
    %frag = vector.shuffle %h01, %h23 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xbf16>, vector<4xbf16>
    %scol = arith.addi %col0, %lhi8 : index
    cake.stmatrix %frag, %tile[%srow, %scol] : vector<8xbf16>, !cake.smem<64x64xbf16, swizzle = 128>
  }
@@FENCE@@  cake.barrier
  scf.if %t0 {
@@FENCE_T0@@    cake.tma.store %tile[], %ty[%m0, %n0] : !cake.smem<64x64xbf16, swizzle = 128>, !cake.tma<[M, N], bf16, box [64, 64], swizzle = 128>
    cake.tma.store_commit
    cake.tma.store_wait 0
  }
  cake.return
}
"""
kernel("correct", C, "stmatrix_cast_fenced",
       "none (correct)",
       "tiles written with stmatrix are fenced by every thread before the barrier and the TMA store.",
       "M=3000,N=4096", fill(STM, NAME="stmatrix_cast_fenced", FENCE="  cake.fence.proxy_async\n", FENCE_T0=""))
kernel("buggy", C, "stmatrix_cast_no_fence",
       "race (wrong result): the TMA store (async proxy) may read the tile before the stmatrix writes land",
       "stmatrix (a generic-proxy write) fills the tile, and no fence.proxy_async precedes the TMA store.",
       "M=3000,N=4096", fill(STM, NAME="stmatrix_cast_no_fence", FENCE="", FENCE_T0=""))
kernel("buggy", C, "stmatrix_cast_fence_issuer_only",
       "race (wrong result): only thread 0's stmatrix writes are ordered for the async proxy",
       "the fence runs in the TMA-issuing thread only, after the barrier.",
       "M=3000,N=4096", fill(STM, NAME="stmatrix_cast_fence_issuer_only", FENCE="",
                             FENCE_T0="    cake.fence.proxy_async\n"))

# --- wgmma with A in registers, converted from global f32 ------------------------------------------
REGS = """cake.kernel @@@NAME@@(
    %a: !cake.tensor<[M, 128], f32> {cake.name = "a"},
    %b: !cake.tensor<[N, 128], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, 128], bf16, box [64, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], f32> {cake.name = "c"})
    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (n ceildiv 64, m ceildiv 64)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c64 : index
  %n0 = arith.muli %bn, %c64 : index
  %bs = cake.alloc_smem : !cake.smem<2x64x64xbf16, swizzle = 128>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<2>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
    cake.mbarrier.init %bars[%c0], count 1 : !cake.mbarriers<2>
    cake.mbarrier.init %bars[%c1], count 1 : !cake.mbarriers<2>
    cake.fence.mbarrier_init
  }
  cake.barrier
  // The whole B panel (K = 128) is loaded once, one 64-wide tile per barrier.
  scf.if %t0 {
    scf.for %s = %c0 to %c2 step %c1 {
      %ks = arith.muli %s, %c64 : index
      cake.mbarrier.arrive_expect_tx %bars[%s], bytes 8192 : !cake.mbarriers<2>
      cake.tma.load %tb[%n0, %ks], %bs[%s], %bars[%s]
          : !cake.tma<[N, 128], bf16, box [64, 64], swizzle = 128>, !cake.smem<2x64x64xbf16, swizzle = 128>, !cake.mbarriers<2>
    }
  }
  %warp = cake.warp_id
  %lane = cake.lane_id
  %wr = arith.muli %warp, %c16 : index
  %g = arith.divui %lane, %c4 : index
  %tq = arith.remui %lane, %c4 : index
  %q2 = arith.muli %tq, %c2 : index
  %r0a = arith.addi %m0, %wr : index
  %ra = arith.addi %r0a, %g : index
  %rb = arith.addi %ra, %c8 : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  cake.mbarrier.wait %bars[%c0], %c0 : !cake.mbarriers<2>
  cake.mbarrier.wait %bars[%c1], %c0 : !cake.mbarriers<2>
  %acc = scf.for %ks = %c0 to %c8 step %c1 iter_args(%acc0 = %zero) -> (vector<32xf32>) {
    %kk0 = arith.muli %ks, %c16 : index
    %ka = arith.addi %kk0, %q2 : index
    %kb = arith.addi %ka, %c8 : index
    %p0 = cake.load %a[%ra, %ka] masked : !cake.tensor<[M, 128], f32> -> vector<2xf32>
    %p1 = cake.load %a[%rb, %ka] masked : !cake.tensor<[M, 128], f32> -> vector<2xf32>
    %p2 = cake.load %a[%ra, %kb] masked : !cake.tensor<[M, 128], f32> -> vector<2xf32>
    %p3 = cake.load %a[%rb, %kb] masked : !cake.tensor<[M, 128], f32> -> vector<2xf32>
    %h0 = arith.truncf %p0 : vector<2xf32> to vector<2xbf16>
    %h1 = arith.truncf %p1 : vector<2xf32> to vector<2xbf16>
    %h2 = arith.truncf %p2 : vector<2xf32> to vector<2xbf16>
    %h3 = arith.truncf %p3 : vector<2xf32> to vector<2xbf16>
    %h01 = vector.shuffle %h0, %h1 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
    %h23 = vector.shuffle %h2, %h3 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
    %frag = vector.shuffle %h01, %h23 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xbf16>, vector<4xbf16>
    %slot = arith.divui %ks, %c4 : index
    %kq = arith.remui %ks, %c4 : index
    %kin = arith.muli %kq, %c16 : index
    cake.wgmma.fence
    %acc1 = cake.wgmma.regs %frag, %bs[%slot, %c0, %kin], %acc0
        : vector<8xbf16>, !cake.smem<2x64x64xbf16, swizzle = 128>, vector<32xf32>
    cake.wgmma.commit
    cake.wgmma.wait @@PEND@@
    scf.yield %acc1 : vector<32xf32>
  }
  cake.wgmma.wait 0
  cake.wgmma.store %acc, %c[%m0, %n0] masked : vector<32xf32>, !cake.tensor<[M, N], f32>
  cake.return
}
"""
kernel("correct", C, "regs_fragment_from_global_wait0",
       "none (correct)",
       "the A fragment is converted from global f32 in registers; wait 0 retires each group before the\n"
       "next conversion rewrites the fragment registers.",
       "M=4096,N=4096", fill(REGS, NAME="regs_fragment_from_global_wait0", PEND=0))
kernel("buggy", C, "regs_fragment_from_global_wait1",
       "race (wrong result): the next step's conversion rewrites A registers a wgmma group still reads",
       "wgmma.regs keeps one group in flight (wait 1) while the loop redefines its A fragment (built by\n"
       "truncf/shuffle, not ldmatrix).",
       "M=4096,N=4096", fill(REGS, NAME="regs_fragment_from_global_wait1", PEND=1))
