"""Family: a hand-written TMA ring (raw mbarriers, explicit parity) feeding a row-sum.

Block = 1 producer warp + 4 consumer warps (160 threads). Block b sums rows [32 b, 32 b + 32) of
x[M, K] (f32) and writes out[M]. K streams in 32-column tiles through S slots of 32x32 f32; full
barrier s (index s) takes the producer's expect-tx arrival, empty barrier s (index S + s) the
consumers' releases."""
from common import consts, fill

RING = """cake.kernel @@@NAME@@(
    %x: !cake.tensor<[M, K], f32> {cake.name = "x"},
    %tx: !cake.tma<[M, K], f32, box [32, 32]> {cake.name = "tx", cake.describes = "x"},
    %out: !cake.tensor<[M], f32> {cake.name = "out"})
    attributes {target = "sm_90a", block = array<i64: 160>, symbols = ["M", "K"],
                grid = affine_map<()[m, k] -> (m ceildiv 32)>} {
@@CONSTS@@  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c32 : index
  %bid = cake.block_id x
  %m0 = arith.muli %bid, %c32 : index
  %buf = cake.alloc_smem : !cake.smem<@@S@@x32x32xf32>
  %bars = cake.mbarrier.alloc : !cake.mbarriers<@@NB@@>
  %tid = cake.thread_id x
  %t0 = arith.cmpi eq, %tid, %c0 : index
  scf.if %t0 {
@@INITS@@    cake.fence.mbarrier_init
  }
  cake.barrier
  cake.warp_roles {
    cake.role "producer" warps [0, 1) {
      %leader = cake.elect_one
      scf.if %leader {
        scf.for %kt = %c0 to %ktiles step %c1 {
          %slot = arith.remui %kt, %c@@S@@ : index
          %round = arith.divui %kt, %c@@S@@ : index
          %phase = arith.remui %round, %c2 : index
          %free = arith.xori %phase, %c1 : index
          %empty = arith.addi %slot, %c@@S@@ : index
@@PWAIT@@          cake.mbarrier.arrive_expect_tx %bars[%slot], bytes 4096 : !cake.mbarriers<@@NB@@>
          %k0 = arith.muli %kt, %c32 : index
          cake.tma.load %tx[%m0, %k0], %buf[%slot], %bars[%slot]
              : !cake.tma<[M, K], f32, box [32, 32]>, !cake.smem<@@S@@x32x32xf32>, !cake.mbarriers<@@NB@@>
        }
      }
    }
    cake.role "consumer" warps [1, 5) {
      %ctid = arith.subi %tid, %c32 : index
      %row = arith.divui %ctid, %c4 : index
      %quad = arith.remui %ctid, %c4 : index
      %col0 = arith.muli %quad, %c8 : index
      %col1 = arith.addi %col0, %c4 : index
      %lane = cake.lane_id
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc = %zero) -> (f32) {
        %slot = arith.remui %kt, %c@@S@@ : index
        %round = arith.divui %kt, %c@@S@@ : index
        %phase = arith.remui %round, %c2 : index
        %free = arith.xori %phase, %c1 : index
        %empty = arith.addi %slot, %c@@S@@ : index
@@CWAIT@@        %v0 = cake.load %buf[%slot, %row, %col0] : !cake.smem<@@S@@x32x32xf32> -> vector<4xf32>
        %v1 = cake.load %buf[%slot, %row, %col1] : !cake.smem<@@S@@x32x32xf32> -> vector<4xf32>
        %v = arith.addf %v0, %v1 : vector<4xf32>
        %part = vector.reduction <add>, %v : vector<4xf32> into f32
        %rsum = cake.warp_reduce sum %part {lanes = 4 : i64} : f32
@@RELEASE@@        %acc2 = arith.addf %acc, %rsum : f32
        scf.yield %acc2 : f32
      }
      %mrow = arith.addi %m0, %row : index
      %lead = arith.cmpi eq, %quad, %c0 : index
      scf.if %lead {
        cake.store %sum, %out[%mrow] masked : f32, !cake.tensor<[M], f32>
      }
    }
  }
  cake.return
}
"""

I10 = " " * 10
I8 = " " * 8


def inits(S, full_count, empty_count):
    out = ""
    for s in range(S):
        out += f"    cake.mbarrier.init %bars[%c{s}], count {full_count} : !cake.mbarriers<{2 * S}>\n"
    for s in range(S):
        out += f"    cake.mbarrier.init %bars[%c{S + s}], count {empty_count} : !cake.mbarriers<{2 * S}>\n"
    return out


def pwait(S, parity="%free", barrier="%empty"):
    return f"{I10}cake.mbarrier.wait %bars[{barrier}], {parity} : !cake.mbarriers<{2 * S}>\n"


def cwait(S, parity="%phase", barrier="%slot"):
    return f"{I8}cake.mbarrier.wait %bars[{barrier}], {parity} : !cake.mbarriers<{2 * S}>\n"


def release_all(S, barrier="%empty"):
    return f"{I8}cake.mbarrier.arrive %bars[{barrier}] : !cake.mbarriers<{2 * S}>\n"


def release_elect(S, barrier="%empty"):
    return (f"{I8}%wl = cake.elect_one\n"
            f"{I8}scf.if %wl {{\n"
            f"{I8}  cake.mbarrier.arrive %bars[{barrier}] : !cake.mbarriers<{2 * S}>\n"
            f"{I8}}}\n")


def release_lane0(S, barrier="%empty"):
    return (f"{I8}%l0 = arith.cmpi eq, %lane, %c0 : index\n"
            f"{I8}scf.if %l0 {{\n"
            f"{I8}  cake.mbarrier.arrive %bars[{barrier}] : !cake.mbarriers<{2 * S}>\n"
            f"{I8}}}\n")


def ring(name, S=3, full_count=1, empty_count=128, PWAIT=None, CWAIT=None, RELEASE=None,
         extra_consts=(), INITS=None):
    cs = sorted(set([0, 1, 2, 4, 8, 32] + list(range(0, 2 * S)) + [S] + list(extra_consts)))
    return fill(RING, NAME=name, S=S, NB=2 * S, CONSTS=consts(*cs),
                INITS=INITS if INITS is not None else inits(S, full_count, empty_count),
                PWAIT=PWAIT if PWAIT is not None else pwait(S),
                CWAIT=CWAIT if CWAIT is not None else cwait(S),
                RELEASE=RELEASE if RELEASE is not None else release_all(S))
