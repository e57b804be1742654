"""Family `simt`: any D, any dtype, no tensor cores, no staging. One warp per point, its lanes
striding over the centroids with fp32 dot products, then an argmin across the warp; `ppb`
points (warps) per block. It is the always-legal fallback and, having no pipeline to fill,
the fastest kernel for the smallest problems.

A tiny shape's time is the chain of dependent memory round trips: with one column per D step and
one centroid per K step, a lane waits (K / 32) * D times. `u` > 1 reads u columns per D step
(clamped, zeroed past D: all u loads in flight before the FMAs) and `kr` > 1 serves kr centroids
per lane and K step (k, k + 32, ...; clamped, |c|^2 = +inf past K), so the chain is
(K / (32 kr)) * ceil(D / u) round trips. The default (u = kr = 1) is also the mma family's seed.

`sk` > 1 splits the centroids of a point over sk warps of the block (warp s of a point starts at
centroid 32 kr s and steps 32 kr sk), their partial argmins merged through shared memory: for few
points and many centroids, where one warp per point leaves most SMs idle and each warp walks all
of K (B4 N142 D2 K6063: 568 warps, 190 dependent steps each). Its domain (SIMT_SPLIT_DOMAIN)
keeps it to few points and little work: the router never extrapolates it to large problems.
"""
from .common import DTYPES, _argmin_step, _count_suffix, _unstaged_head, _warp_per_point

SIMT_PPB = (2, 4, 8, 16)
SIMT_UNROLL = ((1, 1), (4, 1), (8, 1), (4, 2), (8, 2))     # (u, kr)
# (points per block, warps per point, u, kr) of the split-K kernels: 8 to 32 warps per block.
SIMT_SPLITS = tuple((ppb, sk, u, kr) for ppb, sk in ((1, 8), (1, 16), (1, 32), (4, 4))
                    for u, kr in ((4, 2), (8, 2)))
# Where a split kernel is meant to be fast: few points, little work (2^30 CUDA-core FMAs), and
# K >= 128, where it was tuned (bench/results/2026-12-06-library-kmeans-17: with fewer centroids
# a warp walks at most 4 steps; neighbours must not extrapolate it there unmeasured).
SIMT_SPLIT_DOMAIN = ["B * N <= 8192", "B * N * K * D <= 1073741824", "K >= 128"]


def simt_suffix(p):
    return _count_suffix(p, "u", "u") + _count_suffix(p, "kr", "k") + _count_suffix(p, "sk", "sk")


def simt_domain(p):
    return SIMT_SPLIT_DOMAIN if p.get("sk", 1) > 1 else []


def simt_name(p):
    return "km_{t}_simt_w{ppb}".format(t=DTYPES[p["dtype"]][0], ppb=p["ppb"]) + simt_suffix(p)


def simt_variants(dtypes=DTYPES):
    out = [{"dtype": d, "ppb": w, **({"u": u} if u > 1 else {}), **({"kr": kr} if kr > 1 else {})}
           for d in dtypes for w in SIMT_PPB for u, kr in SIMT_UNROLL]
    return out + [{"dtype": d, "ppb": w, "u": u, "kr": kr, "sk": sk}
                  for d in dtypes for w, sk, u, kr in SIMT_SPLITS]


def generate_simt(p):
    ty = DTYPES[p["dtype"]][0]
    ppb = p["ppb"]
    sk = p.get("sk", 1)
    if (p.get("u", 1), p.get("kr", 1)) not in SIMT_UNROLL or \
            (ppb not in SIMT_PPB if sk == 1 else (ppb, sk, p.get("u", 1), p.get("kr", 1)) not in SIMT_SPLITS):
        raise ValueError("illegal simt variant %s" % p)
    if (p.get("u", 1), p.get("kr", 1), sk) != (1, 1, 1):
        return _generate_simt_unrolled(p)
    xt, ct = f"!cake.tensor<[B, N, D], {ty}>", f"!cake.tensor<[B, K, D], {ty}>"
    L = []
    w = L.append
    _unstaged_head(w, p, simt_name(p), 32 * ppb, ppb)
    w("  %c0 = arith.constant 0 : index")
    w("  %c1 = arith.constant 1 : index")
    w("  %c32 = arith.constant 32 : index")
    _scalars(w, ppb)
    _warp_per_point(w, "%i")
    w("  %kbig = arith.index_cast %kdim : index to i32")
    w("  %best:2 = scf.for %k = %lane to %kdim step %c32 iter_args(%bs = %inf, %bk = %kbig) -> (f32, i32) {")
    # |c|^2 first: its load overlaps the dot product's instead of following it. A tiny shape's
    # time is a chain of dependent memory round trips (bench/library/diag_tiny.py).
    w("    %sq = cake.load %csq[%b, %k] : !cake.tensor<[B, K], f32> -> f32")
    w("    %dot = scf.for %j = %c0 to %ddim step %c1 iter_args(%acc = %zero) -> (f32) {")
    if ty == "f32":
        w(f"      %xv = cake.load %x[%b, %i, %j] masked : {xt} -> f32")
        w(f"      %cv = cake.load %c[%b, %k, %j] : {ct} -> f32")
    else:
        w(f"      %xh = cake.load %x[%b, %i, %j] masked : {xt} -> {ty}")
        w(f"      %ch = cake.load %c[%b, %k, %j] : {ct} -> {ty}")
        w(f"      %xv = arith.extf %xh : {ty} to f32")
        w(f"      %cv = arith.extf %ch : {ty} to f32")
    w("      %acc2 = math.fma %xv, %cv, %acc : f32")
    w("      scf.yield %acc2 : f32")
    w("    }")
    w("    %s = math.fma %mtwo, %dot, %sq : f32")
    w("    %k32 = arith.index_cast %k : index to i32")
    w("    %closer = arith.cmpf olt, %s, %bs : f32")
    w("    %ns = arith.select %closer, %s, %bs : f32")
    w("    %nk = arith.select %closer, %k32, %bk : i32")
    w("    scf.yield %ns, %nk : f32, i32")
    w("  }")
    return _close_with_warp_argmin(w, L)


def _scalars(w, ppb):
    """The constants and sizes both simt generators use."""
    w(f"  %cppb = arith.constant {ppb} : index")
    w("  %inf = arith.constant 0x7F800000 : f32")
    w("  %zero = arith.constant 0.0 : f32")
    w("  %mtwo = arith.constant -2.0 : f32")
    w("  %kdim = cake.problem_size \"K\"")
    w("  %ddim = cake.problem_size \"D\"")


def _close_with_warp_argmin(w, L, ppb=1, sk=1):
    """The lanes' (best score, index) reduced across the warp; lane 0 stores the point's index.
    `sk` > 1 warps per point: each warp's lane 0 puts its pair in shared memory, and after a
    barrier the point's first warp reduces the sk pairs (ties to the smaller index, as in the
    warp) and stores it."""
    w("  %ms, %mk = cake.warp_arg_reduce argmin %best#0, %best#1 : f32, i32")
    w("  %first = arith.cmpi eq, %lane, %c0 : index")
    ind, chosen = "  ", "%mk"
    if sk > 1:
        fs, ks = f"!cake.smem<{ppb * sk}xf32>", f"!cake.smem<{ppb * sk}xi32>"
        w(f"  %pms = cake.alloc_smem : {fs}")
        w(f"  %pmk = cake.alloc_smem : {ks}")
        w("  scf.if %first {")
        w(f"    cake.store %ms, %pms[%wid] : f32, {fs}")
        w(f"    cake.store %mk, %pmk[%wid] : i32, {ks}")
        w("  }")
        w("  cake.barrier")
        w("  %lead = arith.cmpi eq, %slice, %c0 : index")
        w("  scf.if %lead {")
        w(f"    %csk = arith.constant {sk - 1} : index")
        w("    %li = arith.minui %lane, %csk : index")
        w("    %slot = arith.addi %wp, %li : index")
        w(f"    %qs = cake.load %pms[%slot] : {fs} -> f32")
        w(f"    %qk = cake.load %pmk[%slot] : {ks} -> i32")
        w("    %mine = arith.cmpi ule, %lane, %csk : index")
        w("    %rs = arith.select %mine, %qs, %inf : f32")
        w("    %rk = arith.select %mine, %qk, %kbig : i32")
        w("    %ts, %tk = cake.warp_arg_reduce argmin %rs, %rk : f32, i32")
        ind, chosen = "    ", "%tk"
    w(f"{ind}scf.if %first {{")
    w(f"{ind}  cake.store {chosen}, %idx[%b, %i] masked : i32, !cake.tensor<[B, N], i32>")
    w(f"{ind}}}")
    if sk > 1:
        w("  }")
    w("  cake.return")
    w("}")
    return "\n".join(L) + "\n"


def _generate_simt_unrolled(p):
    """The simt kernel with u columns per D step and kr centroids per lane and K step."""
    ty = DTYPES[p["dtype"]][0]
    ppb, u, kr, sk = p["ppb"], p.get("u", 1), p.get("kr", 1), p.get("sk", 1)
    xt, ct = f"!cake.tensor<[B, N, D], {ty}>", f"!cake.tensor<[B, K, D], {ty}>"
    L = []
    w = L.append
    _unstaged_head(w, p, simt_name(p), 32 * ppb * sk, ppb)
    for c in sorted({0, 1, 32, 32 * kr * sk, u} | {32 * r for r in range(kr)} | set(range(u))):
        w(f"  %c{c} = arith.constant {c} : index")
    _scalars(w, ppb)
    w("  %ndim = cake.problem_size \"N\"")
    if sk > 1:       # warps wp .. wp + sk - 1 serve one point; %wp is the first's, %slice this one's
        w("  %bx = cake.block_id x")
        w("  %b = cake.block_id y")
        w("  %wid = cake.warp_id")
        w("  %lane = cake.lane_id")
        w(f"  %csk0 = arith.constant {sk} : index")
        w("  %pt = arith.divui %wid, %csk0 : index")
        w("  %slice = arith.remui %wid, %csk0 : index")
        w("  %wp = arith.subi %wid, %slice : index")
        w("  %p0 = arith.muli %bx, %cppb : index")
        w("  %i = arith.addi %p0, %pt : index")
        w(f"  %cstart = arith.constant {32 * kr} : index")
        w("  %koff = arith.muli %slice, %cstart : index")
        w("  %kfirst = arith.addi %lane, %koff : index")
    else:
        _warp_per_point(w, "%i")
    # Clamped indices instead of masked loads (a masked load is a branch: loads behind it wait).
    w("  %nlast = arith.subi %ndim, %c1 : index")
    w("  %klast = arith.subi %kdim, %c1 : index")
    w("  %dlast = arith.subi %ddim, %c1 : index")
    w("  %ic = arith.minui %i, %nlast : index")
    w("  %kbig = arith.index_cast %kdim : index to i32")
    w(f"  %best:2 = scf.for %k = {'%kfirst' if sk > 1 else '%lane'} to %kdim step %c{32 * kr * sk} "
      "iter_args(%bs = %inf, %bk = %kbig) -> (f32, i32) {")
    for r in range(kr):
        k = "%k" if r == 0 else f"%k_{r}"
        if r:
            w(f"    {k} = arith.addi %k, %c{32 * r} : index")
        w(f"    %kc{r} = arith.minui {k}, %klast : index")
        mask = " masked pad(%inf : f32)" if r else ""     # k itself is below K (the loop's bound)
        w(f"    %sq{r} = cake.load %csq[%b, {k}]{mask} : !cake.tensor<[B, K], f32> -> f32")
        w(f"    %ki{r} = arith.index_cast {k} : index to i32")
    inits = ", ".join(f"%a{r} = %zero" for r in range(kr))
    w(f"    %dot:{kr} = scf.for %j = %c0 to %ddim step %c{u} iter_args({inits}) -> "
      f"({', '.join(['f32'] * kr)}) {{")
    for e in range(u):
        col = "%j" if e == 0 else f"%j{e}"
        if e:
            w(f"      {col} = arith.addi %j, %c{e} : index")
        w(f"      %jc{e} = arith.minui {col}, %dlast : index")
        w(f"      %in{e} = arith.cmpi ult, {col}, %ddim : index")
    loads = [("x", "%ic", xt, "xv")] + [("c", f"%kc{r}", ct, f"cv{r}_") for r in range(kr)]
    for e in range(u):                      # every load of the step first
        for t, row, tt, tag in loads:
            w(f"      %{tag}{e}h = cake.load %{t}[%b, {row}, %jc{e}] : {tt} -> {ty}")
    val = {}
    for e in range(u):
        for t, row, tt, tag in loads:
            val[tag, e] = f"%{tag}{e}h"
            if ty != "f32":
                w(f"      %{tag}{e}f = arith.extf {val[tag, e]} : {ty} to f32")
                val[tag, e] = f"%{tag}{e}f"
        # Columns past D: x reads 0, so the clamped column's product vanishes.
        w(f"      %xv{e} = arith.select %in{e}, {val['xv', e]}, %zero : f32")
    outs = []
    for r in range(kr):
        prev = f"%a{r}"
        for e in range(u):
            w(f"      %f{r}_{e} = math.fma %xv{e}, {val[f'cv{r}_', e]}, {prev} : f32")
            prev = f"%f{r}_{e}"
        outs.append(prev)
    w(f"      scf.yield {', '.join(outs)} : {', '.join(['f32'] * kr)}")
    w("    }")
    best = ("%bs", "%bk")
    for r in range(kr):                     # k, k + 32, ...: ascending, ties keep the first
        w(f"    %s{r} = math.fma %mtwo, %dot#{r}, %sq{r} : f32")
        best = _argmin_step(w, "    ", f"{r}", f"%s{r}", f"%ki{r}", best)
    w(f"    scf.yield {best[0]}, {best[1]} : f32, i32")
    w("  }")
    return _close_with_warp_argmin(w, L, ppb, sk)
