"""Family: y = alpha * x, tile by tile: each 32x32 f32 tile is scaled by 256 threads into shared
memory with ordinary stores, fenced for the async proxy, and written back with a TMA store. Block
b owns rows [32 b, 32 b + 32) and walks its N / 32 column tiles in a loop with dynamic bounds."""
from common import fill

TILES = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, N], f32> {cake.name = "x"},
    %y: !cake.tensor<[M, N], f32> {cake.name = "y"},
    %ty: !cake.tma<[M, N], f32, box [32, 32]> {cake.name = "ty", cake.describes = "y"},
    %alpha: f32 {cake.name = "alpha"})
    attributes {target = "sm_90a", block = array<i64: 256>, symbols = ["M", "N"],
                grid = affine_map<()[m, n] -> (m ceildiv 32)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %ndim = cake.problem_size "N"
  %ntiles = arith.ceildivui %ndim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %tile = cake.alloc_smem : !cake.smem<@@TT@@>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  %t32 = arith.cmpi eq, %tid, %c32 : index
  %r = arith.divui %tid, %c8 : index
  %q = arith.remui %tid, %c8 : index
  %cq = arith.muli %q, %c4 : index
  %grow = arith.addi %m0, %r : index
  %av = vector.broadcast %alpha : f32 to vector<4xf32>
@@LOOP@@@@EPI@@  cake.return
}
"""

LOOP_FOR = """  scf.for %j = %c0 to %ntiles step %c1 {
    %n0 = arith.muli %j, %c32 : index
    %gcol = arith.addi %n0, %cq : index
    %v = cake.load %x[%grow, %gcol] masked : !cake.tensor<[M, N], f32> -> vector<4xf32>
    %s = arith.mulf %v, %av : vector<4xf32>
@@BUFSEL@@@@REUSE@@    cake.store %s, %tile[@@IDX@@%r, %cq] : vector<4xf32>, !cake.smem<@@TT@@>
@@AFTER_WRITE@@@@FENCE@@    cake.barrier
@@PUBLISH@@    scf.if @@ISSUER@@ {
      cake.tma.store %tile[@@SIDX@@], %ty[%m0, %n0] : !cake.smem<@@TT@@>, !cake.tma<[M, N], f32, box [32, 32]>
      cake.tma.store_commit
    }
  }
"""

REUSE_OK = ("    scf.if %t0 {\n"
            "      cake.tma.store_wait @@PEND@@\n"
            "    }\n"
            "    cake.barrier\n")
FENCE = "    cake.fence.proxy_async\n"
EPI_OK = ("  scf.if %t0 {\n"
          "    cake.tma.store_wait 0\n"
          "  }\n")


def tiles(name, nbuf=1, pend=0, REUSE=None, AFTER_WRITE="", FENCE_=FENCE, PUBLISH="",
          ISSUER="%t0", EPI=EPI_OK, LOOP=LOOP_FOR, IDX=None, BUFSEL=None):
    tt = "32x32xf32" if nbuf == 1 else f"{nbuf}x32x32xf32"
    if IDX is None:
        IDX = "" if nbuf == 1 else "%bsel, "
    sidx = IDX.rstrip(", ")
    if BUFSEL is None:
        BUFSEL = "" if nbuf == 1 else f"    %bsel = arith.remui %j, %c{nbuf} : index\n"
    loop = fill(LOOP, BUFSEL=BUFSEL, REUSE=REUSE if REUSE is not None else REUSE_OK,
                IDX=IDX, AFTER_WRITE=AFTER_WRITE, FENCE=FENCE_, PUBLISH=PUBLISH, ISSUER=ISSUER,
                SIDX=sidx, TT="@@TT@@", PEND="@@PEND@@")
    t = fill(TILES, NAME=name, TT="@@TT@@", LOOP=loop, EPI=EPI)
    return fill(t, TT=tt, PEND=pend)
