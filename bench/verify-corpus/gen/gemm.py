"""Family: a TMA + wgmma GEMM with warp roles and a cake.pipeline (bf16 in, bf16 out).

C[M, N] = A[M, K] * B[N, K]^T. A block computes a 128x128 tile: warpgroup 0 produces (one
elected thread), warpgroups 1 and 2 each run m64n128k16 wgmma on 64 rows. 64-wide k tiles of
A and B (16 KiB each) go through a @@S@@-stage pipeline."""
from common import consts, fill

GEMM = """cake.kernel @@@NAME@@(
    %a: !cake.tensor<[M, K], bf16> {cake.name = "a"},
    %ta: !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128> {cake.name = "ta", cake.describes = "a"},
    %b: !cake.tensor<[N, K], bf16> {cake.name = "b"},
    %tb: !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128> {cake.name = "tb", cake.describes = "b"},
    %c: !cake.tensor<[M, N], bf16> {cake.name = "c"}@@EXTRA_ARGS@@)
    attributes {target = "sm_90a", block = array<i64: 384>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (n ceildiv 128, m ceildiv 128)>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c64 : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c128 : index
  %n0 = arith.muli %bn, %c128 : index
  %abuf = cake.alloc_smem : !cake.smem<@@SA@@x128x64xbf16, swizzle = 128>
  %bbuf = cake.alloc_smem : !cake.smem<@@SA@@x128x64xbf16, swizzle = 128>
  %pipe = cake.pipeline.create consumers @@CONSUMERS@@ : !cake.pipeline<@@S@@>
  cake.warp_roles {
    cake.role "tma" warps [0, 4) regs 40 {
      %w = cake.warp_id
      %w0 = arith.cmpi eq, %w, %c0 : index
@@PRODUCER@@    }
    cake.role "mma" warps [4, 12) regs 232 {
      %wg = cake.warpgroup_id
      %wgm = arith.subi %wg, %c1 : index
      %r0 = arith.muli %wgm, %c64 : index
      %tid = cake.thread_id x
      %t128 = arith.remui %tid, %c128 : index
      %wg_leader = arith.cmpi eq, %t128, %c0 : index
      %zero = arith.constant dense<0.0> : vector<64xf32>
      %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%a0 = %zero) -> (vector<64xf32>) {
@@CWAIT@@        %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<@@S@@>
        cake.wgmma.fence
        %a1 = cake.wgmma %abuf[%slot, %r0, %c0], %bbuf[%slot, %c0, %c0], %a0
            : !cake.smem<@@SA@@x128x64xbf16, swizzle = 128>, !cake.smem<@@SA@@x128x64xbf16, swizzle = 128>, vector<64xf32>
        %a2 = cake.wgmma %abuf[%slot, %r0, %c16], %bbuf[%slot, %c0, %c16], %a1
            : !cake.smem<@@SA@@x128x64xbf16, swizzle = 128>, !cake.smem<@@SA@@x128x64xbf16, swizzle = 128>, vector<64xf32>
        %a3 = cake.wgmma %abuf[%slot, %r0, %c32], %bbuf[%slot, %c0, %c32], %a2
            : !cake.smem<@@SA@@x128x64xbf16, swizzle = 128>, !cake.smem<@@SA@@x128x64xbf16, swizzle = 128>, vector<64xf32>
        %a4 = cake.wgmma %abuf[%slot, %r0, %c48], %bbuf[%slot, %c0, %c48], %a3
            : !cake.smem<@@SA@@x128x64xbf16, swizzle = 128>, !cake.smem<@@SA@@x128x64xbf16, swizzle = 128>, vector<64xf32>
        cake.wgmma.commit
@@AFTER@@        scf.yield %a4 : vector<64xf32>
      }
@@FINAL@@      %mrow = arith.addi %m0, %r0 : index
      cake.wgmma.store @@OUT@@, %c[%mrow, %n0] masked : vector<64xf32>, !cake.tensor<[M, N], bf16>
    }
  }
  cake.return
}
"""

I10 = " " * 10


def loads(S, it="%kt", ind=12):
    p = " " * ind
    return (f"{p}%slot = cake.pipeline.slot %pipe[{it}] : !cake.pipeline<{S}>\n"
            f"{p}%k0 = arith.muli {it}, %c64 : index\n"
            f"{p}cake.tma.load %ta[%m0, %k0], %abuf[%slot], %pipe[{it}]\n"
            f"{p}    : !cake.tma<[M, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<@@SA@@x128x64xbf16, swizzle = 128>, !cake.pipeline<{S}>\n"
            f"{p}cake.tma.load %tb[%n0, %k0], %bbuf[%slot], %pipe[{it}]\n"
            f"{p}    : !cake.tma<[N, K], bf16, box [128, 64], swizzle = 128>, !cake.smem<@@SA@@x128x64xbf16, swizzle = 128>, !cake.pipeline<{S}>\n")


def producer_std(S, commit=None, per_warp=False):
    commit = commit if commit is not None else \
        f"            cake.pipeline.producer_commit %pipe[%kt], tx_bytes 32768 : !cake.pipeline<{S}>\n"
    body = ("        %e = cake.elect_one\n"
            "        scf.if %e {\n"
            "          scf.for %kt = %c0 to %ktiles step %c1 {\n"
            f"            cake.pipeline.producer_acquire %pipe[%kt] : !cake.pipeline<{S}>\n"
            + commit + loads(S) +
            "          }\n"
            "        }\n")
    if per_warp:
        return body
    return "      scf.if %w0 {\n" + body + "      }\n"


def producer_rotated(S):
    return ("      scf.if %w0 {\n"
            "        %e = cake.elect_one\n"
            "        scf.if %e {\n"
            "          %any = arith.cmpi ugt, %ktiles, %c0 : index\n"
            "          scf.if %any {\n"
            f"            cake.pipeline.producer_acquire %pipe[%c0] : !cake.pipeline<{S}>\n"
            "          }\n"
            "          scf.for %kt = %c0 to %ktiles step %c1 {\n"
            f"            cake.pipeline.producer_commit %pipe[%kt], tx_bytes 32768 : !cake.pipeline<{S}>\n"
            + loads(S) +
            "            %nk = arith.addi %kt, %c1 : index\n"
            "            %more = arith.cmpi ult, %nk, %ktiles : index\n"
            "            scf.if %more {\n"
            f"              cake.pipeline.producer_acquire %pipe[%nk] : !cake.pipeline<{S}>\n"
            "            }\n"
            "          }\n"
            "        }\n"
            "      }\n")


def cwait(S, it="%kt"):
    return f"        cake.pipeline.consumer_wait %pipe[{it}] : !cake.pipeline<{S}>\n"


def after_wait0(S, it="%kt"):
    return ("        cake.wgmma.wait 0\n"
            f"        cake.pipeline.consumer_release %pipe[{it}] : !cake.pipeline<{S}>\n")


def after_lag1(S, guard=True, pending=1):
    if guard:
        return (f"        cake.wgmma.wait {pending}\n"
                "        %has_prev = arith.cmpi ugt, %kt, %c0 : index\n"
                "        %rel = arith.andi %has_prev, %wg_leader : i1\n"
                "        scf.if %rel {\n"
                "          %prev = arith.subi %kt, %c1 : index\n"
                f"          cake.pipeline.consumer_release %pipe[%prev] : !cake.pipeline<{S}>\n"
                "        }\n")
    return (f"        cake.wgmma.wait {pending}\n"
            "        scf.if %wg_leader {\n"
            "          %prev = arith.subi %kt, %c1 : index\n"
            f"          cake.pipeline.consumer_release %pipe[%prev] : !cake.pipeline<{S}>\n"
            "        }\n")


FINAL_WAIT0 = "      cake.wgmma.wait 0\n"


def gemm(name, S=3, SA=None, consumers=256, PRODUCER=None, CWAIT=None, AFTER=None,
         FINAL=FINAL_WAIT0, OUT="%acc", EXTRA_ARGS=""):
    SA = SA if SA is not None else S
    t = fill(GEMM, NAME=name, S=S, SA="@@SA@@", CONSUMERS=consumers,
             PRODUCER=PRODUCER if PRODUCER is not None else producer_std(S),
             CWAIT=CWAIT if CWAIT is not None else cwait(S),
             AFTER=AFTER if AFTER is not None else after_wait0(S),
             FINAL=FINAL, OUT=OUT, EXTRA_ARGS=EXTRA_ARGS)
    return fill(t, SA=SA)
