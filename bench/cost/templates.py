"""Text templates of the cost-model sweep: the Hopper GEMM (examples/hopper_gemm.mlir) and the Hopper
KMeans assignment (the one-tile-per-block form of examples/kmeans_hopper.mlir, commit 1a93d9e), with
their tunables as parameters. Each call returns CAKE IR whose kernel keeps the example's name and
parameters, so the examples' reference kernels check it. docs/CostModel.md, "The sweep".
"""


# The producer role's opening: one elected thread of warp 0 issues the copies (both templates).
PRODUCER_OPEN = """    cake.role "producer" warps [0, 4) regs 40 {
      %warp = cake.warp_id
      %first = arith.cmpi eq, %warp, %c0 : index
      scf.if %first {
        %leader = cake.elect_one
        scf.if %leader {
"""


def _consts(values):
    return "\n".join(f"  %c{c} = arith.constant {c} : index" for c in sorted(set(values)))


def gemm(BM=128, BN=256, SW=128, ST=4, WAIT=1):
    """C[M,N] (f32) = A[M,K] (bf16) * B[N,K]^T; BM rows per block (64 per consumer warpgroup), BN
    columns (the wgmma N), BK = SW/2 (one swizzle span of bf16), ST pipeline stages, WAIT wgmma
    groups left in flight (0 or 1)."""
    BK = SW // 2
    wgs = BM // 64
    threads = 128 * (1 + wgs)
    ty_a = f"!cake.smem<{ST}x{BM}x{BK}xbf16, swizzle = {SW}>"
    ty_b = f"!cake.smem<{ST}x{BN}x{BK}xbf16, swizzle = {SW}>"
    tma_a = f"!cake.tma<[M, K], bf16, box [{BM}, {BK}], swizzle = {SW}>"
    tma_b = f"!cake.tma<[N, K], bf16, box [{BN}, {BK}], swizzle = {SW}>"
    ks = list(range(0, BK, 16))
    acc = f"vector<{BN // 2}xf32>"
    mmas, prev = [], "%acc0"
    for i, k in enumerate(ks):
        mmas.append(f"        %acc{i + 1} = cake.wgmma %abuf[%slot, %row, %c{k}], %bbuf[%slot, %c0, %c{k}], {prev}\n"
                    f"            : {ty_a}, {ty_b}, {acc}")
        prev = f"%acc{i + 1}"
    if WAIT:
        release = f"""        %has_prev = arith.cmpi ugt, %kt, %c0 : index
        %release = arith.andi %has_prev, %arrives : i1
        scf.if %release {{
          %prev = arith.subi %kt, %c1 : index
          cake.pipeline.consumer_release %pipe[%prev] : !cake.pipeline<{ST}>
        }}"""
    else:
        release = f"""        scf.if %arrives {{
          cake.pipeline.consumer_release %pipe[%kt] : !cake.pipeline<{ST}>
        }}"""
    nl = "\n"
    return f"""// Cost-model sweep variant of examples/hopper_gemm.mlir: BM={BM} BN={BN} BK={BK} swizzle={SW} stages={ST} wait={WAIT}.
cake.kernel @hopper_gemm(
    %a: !cake.tensor<[M, K], bf16> {{cake.name = "a"}},
    %ta: {tma_a} {{cake.name = "ta", cake.describes = "a"}},
    %b: !cake.tensor<[N, K], bf16> {{cake.name = "b"}},
    %tb: {tma_b} {{cake.name = "tb", cake.describes = "b"}},
    %c: !cake.tensor<[M, N], f32> {{cake.name = "c"}})
    attributes {{target = "sm_90a", block = array<i64: {threads}>, symbols = ["M", "N", "K"],
                grid = affine_map<()[m, n, k] -> (n ceildiv {BN}, m ceildiv {BM})>}} {{
{_consts([0, 1, 64, 128, BM, BN, BK] + ks)}
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c{BK} : index
  %bn = cake.block_id x
  %bm = cake.block_id y
  %m0 = arith.muli %bm, %c{BM} : index
  %n0 = arith.muli %bn, %c{BN} : index
  %abuf = cake.alloc_smem : {ty_a}
  %bbuf = cake.alloc_smem : {ty_b}
  %pipe = cake.pipeline.create consumers {wgs} : !cake.pipeline<{ST}>
  cake.warp_roles {{
{PRODUCER_OPEN}          scf.for %kt = %c0 to %ktiles step %c1 {{
            cake.pipeline.producer_acquire %pipe[%kt] : !cake.pipeline<{ST}>
            cake.pipeline.producer_commit %pipe[%kt], tx_bytes {(BM + BN) * BK * 2} : !cake.pipeline<{ST}>
            %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<{ST}>
            %k0 = arith.muli %kt, %c{BK} : index
            cake.tma.load %ta[%m0, %k0], %abuf[%slot], %pipe[%kt] : {tma_a}, {ty_a}, !cake.pipeline<{ST}>
            cake.tma.load %tb[%n0, %k0], %bbuf[%slot], %pipe[%kt] : {tma_b}, {ty_b}, !cake.pipeline<{ST}>
          }}
        }}
      }}
    }}
    cake.role "consumer" warps [4, {4 + 4 * wgs}) regs 232 {{
      %wg = cake.warpgroup_id
      %half = arith.subi %wg, %c1 : index
      %row = arith.muli %half, %c64 : index
      %tid = cake.thread_id x
      %lane128 = arith.remui %tid, %c128 : index
      %arrives = arith.cmpi eq, %lane128, %c0 : index
      %zero = arith.constant dense<0.0> : {acc}
      %acc = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%acc0 = %zero) -> ({acc}) {{
        cake.pipeline.consumer_wait %pipe[%kt] : !cake.pipeline<{ST}>
        %slot = cake.pipeline.slot %pipe[%kt] : !cake.pipeline<{ST}>
        cake.wgmma.fence
{nl.join(mmas)}
        cake.wgmma.commit
        cake.wgmma.wait {WAIT}
{release}
        scf.yield {prev} : {acc}
      }}
      cake.wgmma.wait 0
      %mrow = arith.addi %m0, %row : index
      cake.wgmma.store %acc, %c[%mrow, %n0] masked : {acc}, !cake.tensor<[M, N], f32>
    }}
  }}
  cake.return
}}
"""


def gemm_smem(BM, BN, SW, ST, **_):
    return ST * (BM + BN) * (SW // 2) * 2 + 16 * ST


def kmeans(BM=128, BN=256, SW=128, ST=2):
    """idx[b, n] = argmin_k |c_bk|^2 - 2 x_bn . c_bk, fp16, D = 128: BM points per block (64 per
    consumer warpgroup), centroid tiles of BN (the wgmma N) through ST stages; D split in 128/(SW/2)
    chunks of one swizzle span."""
    H = SW // 2
    chunks = 128 // H
    wgs = BM // 64
    threads = 128 * (1 + wgs)
    xbuf = f"!cake.smem<{chunks}x1x{BM}x{H}xf16, swizzle = {SW}>"
    cbuf = f"!cake.smem<{ST}x{chunks}x1x{BN}x{H}xf16, swizzle = {SW}>"
    csqbuf = f"!cake.smem<{ST}x1x{BN}xf32>"
    tx = f"!cake.tma<[B, N, 128], f16, box [1, {BM}, {H}], swizzle = {SW}>"
    tc = f"!cake.tma<[B, K, 128], f16, box [1, {BN}, {H}], swizzle = {SW}>"
    tcsq = f"!cake.tma<[B, K], f32, box [1, {BN}]>"
    pipe = f"!cake.pipeline<{ST}>"
    ks = list(range(0, H, 16))
    xloads, cloads, mmas, prev, n = [], [], [], "%zero", 0
    for ch in range(chunks):
        xloads.append(f"          cake.tma.load %tx[%b, %m0, %c{ch * H}], %xbuf[%c{ch}], %xbar[%c0]\n"
                      f"              : {tx}, {xbuf}, !cake.mbarriers<1>")
        cloads.append(f"            cake.tma.load %tc[%b, %k0, %c{ch * H}], %cbuf[%slot, %c{ch}], %pipe[%kt]\n"
                      f"                : {tc}, {cbuf}, {pipe}")
        for k in ks:
            mmas.append(f"        %a{n} = cake.wgmma %xbuf[%c{ch}, %c0, %row, %c{k}], %cbuf[%slot, %c{ch}, %c0, %c0, %c{k}], {prev}\n"
                        f"            : {xbuf}, {cbuf}, vector<{BN // 2}xf32>")
            prev = f"%a{n}"
            n += 1
    nl = "\n"
    return f"""// Cost-model sweep variant of the KMeans assignment on Hopper: BM={BM} BN={BN} swizzle={SW} stages={ST}.
cake.kernel @kmeans_hopper(
    %x: !cake.tensor<[B, N, 128], f16> {{cake.name = "x"}},
    %tx: {tx} {{cake.name = "tx", cake.describes = "x"}},
    %c: !cake.tensor<[B, K, 128], f16> {{cake.name = "c"}},
    %tc: {tc} {{cake.name = "tc", cake.describes = "c"}},
    %csq: !cake.tensor<[B, K], f32> {{cake.name = "csq"}},
    %tcsq: {tcsq} {{cake.name = "tcsq", cake.describes = "csq"}},
    %idx: !cake.tensor<[B, N], i32> {{cake.name = "idx"}})
    attributes {{target = "sm_90a", block = array<i64: {threads}>, symbols = ["B", "N", "K"],
                grid = affine_map<()[b, n, k] -> (n ceildiv {BM}, b)>}} {{
{_consts([0, 1, 64, BM, BN] + [ch * H for ch in range(chunks)] + list(range(chunks)) + ks)}
  %kdim = cake.problem_size "K"
  %ktiles = arith.ceildivui %kdim, %c{BN} : index
  %bx = cake.block_id x
  %b = cake.block_id y
  %m0 = arith.muli %bx, %c{BM} : index
  %xbuf = cake.alloc_smem : {xbuf}
  %cbuf = cake.alloc_smem : {cbuf}
  %csqbuf = cake.alloc_smem : {csqbuf}
  %xbar = cake.mbarrier.alloc : !cake.mbarriers<1>
  %tid = cake.thread_id x
  %is_first = arith.cmpi eq, %tid, %c0 : index
  scf.if %is_first {{
    cake.mbarrier.init %xbar[%c0], count 1 : !cake.mbarriers<1>
    cake.fence.mbarrier_init
  }}
  %pipe = cake.pipeline.create consumers {128 * wgs} : {pipe}
  cake.warp_roles {{
{PRODUCER_OPEN}          cake.mbarrier.arrive_expect_tx %xbar[%c0], bytes {BM * 128 * 2} : !cake.mbarriers<1>
{nl.join(xloads)}
          scf.for %kt = %c0 to %ktiles step %c1 {{
            cake.pipeline.producer_acquire %pipe[%kt] : {pipe}
            cake.pipeline.producer_commit %pipe[%kt], tx_bytes {BN * 128 * 2 + BN * 4} : {pipe}
            %slot = cake.pipeline.slot %pipe[%kt] : {pipe}
            %k0 = arith.muli %kt, %c{BN} : index
{nl.join(cloads)}
            cake.tma.load %tcsq[%b, %k0], %csqbuf[%slot], %pipe[%kt] : {tcsq}, {csqbuf}, {pipe}
          }}
        }}
      }}
    }}
    cake.role "consumer" warps [4, {4 + 4 * wgs}) regs 232 {{
      %wg = cake.warpgroup_id
      %half = arith.subi %wg, %c1 : index
      %row = arith.muli %half, %c64 : index
      %zero = arith.constant dense<0.0> : vector<{BN // 2}xf32>
      %inf = arith.constant dense<0x7F800000> : vector<2xf32>
      %none = arith.constant dense<0> : vector<2xi32>
      cake.mbarrier.wait %xbar[%c0], %c0 : !cake.mbarriers<1>
      %best:2 = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%bv = %inf, %bi = %none)
          -> (vector<2xf32>, vector<2xi32>) {{
        cake.pipeline.consumer_wait %pipe[%kt] : {pipe}
        %slot = cake.pipeline.slot %pipe[%kt] : {pipe}
        cake.wgmma.fence
{nl.join(mmas)}
        cake.wgmma.commit
        cake.wgmma.wait 0
        %k0 = arith.muli %kt, %c{BN} : index
        %valid = arith.subi %kdim, %k0 : index
        %v, %col = cake.wgmma.row_arg_reduce argmin {prev}, scale -2.0, valid %valid,
            %csqbuf[%slot, %c0, %c0] : vector<{BN // 2}xf32>, {csqbuf}
        cake.pipeline.consumer_release %pipe[%kt] : {pipe}
        %k0i = arith.index_cast %k0 : index to i32
        %k0v = vector.broadcast %k0i : i32 to vector<2xi32>
        %colk = arith.addi %col, %k0v : vector<2xi32>
        %closer = arith.cmpf olt, %v, %bv : vector<2xf32>
        %nbv = arith.select %closer, %v, %bv : vector<2xi1>, vector<2xf32>
        %nbi = arith.select %closer, %colk, %bi : vector<2xi1>, vector<2xi32>
        scf.yield %nbv, %nbi : vector<2xf32>, vector<2xi32>
      }}
      %mrow = arith.addi %m0, %row : index
      cake.wgmma.store_rows %best#1, %idx[%b, %mrow] masked : vector<2xi32>, !cake.tensor<[B, N], i32>
    }}
  }}
  cake.return
}}
"""


def kmeans_smem(BM, BN, SW, ST, **_):
    return BM * 128 * 2 + ST * (BN * 128 * 2 + BN * 4) + 8 + 16 * ST + 2048  # + alignment slack
