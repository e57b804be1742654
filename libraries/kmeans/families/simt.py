"""Family `simt`: any D, any dtype, no tensor cores, no staging. One warp per point, its lanes
striding over the centroids with fp32 dot products, then an argmin across the warp; `ppb`
points (warps) per block. It is the always-legal fallback and, having no pipeline to fill,
the fastest kernel for the smallest problems.
"""
from .common import DTYPES, _unstaged_head, _warp_per_point

SIMT_PPB = (2, 4, 8, 16)


def simt_name(p):
    return "km_{t}_simt_w{ppb}".format(t=DTYPES[p["dtype"]][0], ppb=p["ppb"])


def simt_variants(dtypes=DTYPES):
    return [{"dtype": d, "ppb": w} for d in dtypes for w in SIMT_PPB]


def generate_simt(p):
    ty = DTYPES[p["dtype"]][0]
    ppb = p["ppb"]
    if ppb not in SIMT_PPB:
        raise ValueError("illegal simt variant %s" % p)
    xt, ct = f"!cake.tensor<[B, N, D], {ty}>", f"!cake.tensor<[B, K, D], {ty}>"
    L = []
    w = L.append
    _unstaged_head(w, p, simt_name(p), 32 * ppb, ppb)
    w("  %c0 = arith.constant 0 : index")
    w("  %c1 = arith.constant 1 : index")
    w("  %c32 = arith.constant 32 : index")
    w(f"  %cppb = arith.constant {ppb} : index")
    w("  %inf = arith.constant 0x7F800000 : f32")
    w("  %zero = arith.constant 0.0 : f32")
    w("  %mtwo = arith.constant -2.0 : f32")
    w("  %kdim = cake.problem_size \"K\"")
    w("  %ddim = cake.problem_size \"D\"")
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
    w("  %ms, %mk = cake.warp_arg_reduce argmin %best#0, %best#1 : f32, i32")
    w("  %first = arith.cmpi eq, %lane, %c0 : index")
    w("  scf.if %first {")
    w("    cake.store %mk, %idx[%b, %i] masked : i32, !cake.tensor<[B, N], i32>")
    w("  }")
    w("  cake.return")
    w("}")
    return "\n".join(L) + "\n"
