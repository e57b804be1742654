"""Family `lanes`: any dtype, any D, small K, no staging (one launch; the user's tensors as they
are). A group of `g` consecutive lanes serves one point: lane l of the group reads elements
l*v, l*v + g*v, ... of the point's row and of `kt` centroid rows at a time (v-element vector
loads: the manifest then requires D % v == 0; coalesced across the group), keeps kt vector
partial dots, and the group sums them with a shuffle reduction. Centroid rows come through L1
(every point of a block reads the same ones). Bound by reading x once when K <= kt; beyond that
x is re-read per centroid tile (from L1/L2), so the family's domain stops at LANES_MAX_K.
"""
from .common import DTYPES, _argmin_step, _clamp_bounds, _count_suffix, _sizes_and_ids, _unstaged_head

LANES_WARPS = 4
LANES_MAX_K = 64


def lanes_configs(dtype):
    """(g, v, kt, pp): 16 centroids per pass only with narrow loads; pp points per group for
    whole-warp groups (wide D, where re-reading the centroid rows through L1 bounds a warp) while
    the pp * kt accumulators (v-wide) fit in 64 registers."""
    widths = sorted({1, 2, 16 // DTYPES[dtype][1]})
    return [(g, v, kt, pp) for g in (4, 8, 32) for v in widths for kt in (4, 8, 16) for pp in (1, 2, 4)
            if kt * v <= 32 and (pp == 1 or (g == 32 and pp * kt * v <= 64))]


def lanes_unroll(dtype, v, pp=1):
    """Strides per step whose loads are issued before their FMAs: one load per DRAM round trip
    kept a warp latency-bound (session 10: 3-5x off the byte floor). Fewer with more points per
    group (each stride then loads pp rows of x)."""
    return max(1, (4 if v * DTYPES[dtype][1] <= 4 else 2) // pp)


def lanes_variants(dtypes=DTYPES):
    return [{"dtype": d, "g": g, "v": v, "kt": kt, **({"pp": pp} if pp > 1 else {})}
            for d in dtypes for g, v, kt, pp in lanes_configs(d)]


def lanes_suffix(p):
    return _count_suffix(p, "pp", "p")


def lanes_name(p):
    return "km_{t}_lanes_g{g}_v{v}_k{kt}".format(t=DTYPES[p["dtype"]][0], **p) + lanes_suffix(p)


def generate_lanes(p):
    ty = DTYPES[p["dtype"]][0]
    g, v, kt, pp, warps = p["g"], p["v"], p["kt"], p.get("pp", 1), LANES_WARPS
    if (g, v, kt, pp) not in lanes_configs(p["dtype"]):
        raise ValueError("illegal lanes variant %s" % p)
    u = lanes_unroll(p["dtype"], v, pp)
    groups = warps * 32 // g                 # lane groups per block
    ppb = groups * pp                        # points per block: group q-th point at + q * groups
    xt, ct = f"!cake.tensor<[B, N, D], {ty}>", f"!cake.tensor<[B, K, D], {ty}>"
    vt = ty if v == 1 else f"vector<{v}x{ty}>"
    ft = "f32" if v == 1 else f"vector<{v}xf32>"
    L = []
    w = L.append
    _unstaged_head(w, p, lanes_name(p), 32 * warps, ppb)
    consts = {0, 1, g, v, kt, g * v * u, ppb, 32 // g} | {s * g * v for s in range(1, u)} | \
        {q * groups for q in range(1, pp)}
    for c in sorted(consts):
        w(f"  %c{c} = arith.constant {c} : index")
    for j in range(1, kt):
        w(f"  %o{j} = arith.constant {j} : index")
        w(f"  %l{j} = arith.constant {j} : i32")
    w("  %inf = arith.constant 0x7F800000 : f32")
    w(f"  %zero = arith.constant {'0.0 : f32' if v == 1 else f'dense<0.0> : {ft}'}")
    w("  %mtwo = arith.constant -2.0 : f32")
    _sizes_and_ids(w)
    w(f"  %sub = arith.divui %lane, %c{g} : index")
    w(f"  %gl = arith.remui %lane, %c{g} : index")
    w(f"  %p0 = arith.muli %bx, %c{ppb} : index")
    w(f"  %p1 = arith.muli %wp, %c{32 // g} : index")
    w("  %p2 = arith.addi %p0, %p1 : index")
    w("  %i0 = arith.addi %p2, %sub : index")
    w(f"  %d0 = arith.muli %gl, %c{v} : index")
    # Clamped indices, unmasked loads: a point past N reads row N-1 (its result is not stored), a
    # centroid past K row K-1 (its |c|^2 is +inf), a column past D column D-v with x's value
    # replaced by zero.
    _clamp_bounds(w, v)
    for q in range(pp):
        if q:
            w(f"  %i{q} = arith.addi %i0, %c{q * groups} : index")
        w(f"  %ic{q} = arith.minui %i{q}, %nlast : index")
    w("  %kbig = arith.index_cast %kdim : index to i32")
    carried = ", ".join(f"%bs{q} = %inf, %bk{q} = %kbig" for q in range(pp))
    w(f"  %best:{2 * pp} = scf.for %k0 = %c0 to %kdim step %c{kt} iter_args({carried}) -> "
      f"({', '.join(['f32, i32'] * pp)}) {{")
    for j in range(1, kt):
        w(f"    %k{j} = arith.addi %k0, %o{j} : index")
    ks = ["%k0"] + [f"%k{j}" for j in range(1, kt)]
    for j in range(kt):
        w(f"    %kc{j} = arith.minui {ks[j]}, %klast : index")
    for j in range(kt):             # before the D loop: the loads overlap (see simt)
        w(f"    %q{j} = cake.load %csq[%b, {ks[j]}] masked pad(%inf : f32) : "
          "!cake.tensor<[B, K], f32> -> f32")
    acc = [(q, j) for q in range(pp) for j in range(kt)]          # accumulator order
    accs = ", ".join(f"%a{q}_{j} = %zero" for q, j in acc)
    w(f"    %acc:{len(acc)} = scf.for %d = %d0 to %ddim step %c{g * v * u} iter_args({accs}) -> "
      f"({', '.join([ft] * len(acc))}) {{")

    def load(dst, src, t, row, col):
        if ty == "f32":
            w(f"      {dst} = cake.load {src}[%b, {row}, {col}] : {t} -> {vt}")
        else:
            w(f"      {dst}h = cake.load {src}[%b, {row}, {col}] : {t} -> {vt}")
            w(f"      {dst} = arith.extf {dst}h : {vt} to {ft}")
    cols = ["%d"] + [f"%d{s}" for s in range(1, u)]
    for s in range(1, u):
        w(f"      %d{s} = arith.addi %d, %c{s * g * v} : index")
    for s in range(u):
        w(f"      %dc{s} = arith.minui {cols[s]}, %dlast : index")
        w(f"      %in{s} = arith.cmpi ult, {cols[s]}, %ddim : index")
    for s in range(u):              # every load of the step first: u round trips overlap
        for q in range(pp):
            load(f"%xr{s}_{q}", "%x", xt, f"%ic{q}", f"%dc{s}")
            w(f"      %xv{s}_{q} = arith.select %in{s}, %xr{s}_{q}, %zero : {ft}")
        for j in range(kt):         # one centroid load serves the group's pp points
            load(f"%cv{s}_{j}", "%c", ct, f"%kc{j}", f"%dc{s}")
    op = "math.fma" if v == 1 else "vector.fma"
    for q, j in acc:
        prev = f"%a{q}_{j}"
        for s in range(u):
            w(f"      %n{s}_{q}_{j} = {op} %xv{s}_{q}, %cv{s}_{j}, {prev} : {ft}")
            prev = f"%n{s}_{q}_{j}"
    w(f"      scf.yield {', '.join(f'%n{u - 1}_{q}_{j}' for q, j in acc)} : {', '.join([ft] * len(acc))}")
    w("    }")
    w("    %k0i = arith.index_cast %k0 : index to i32")
    for j in range(1, kt):
        w(f"    %ki{j} = arith.addi %k0i, %l{j} : i32")
    out = []
    for q in range(pp):
        ps, pk = f"%bs{q}", f"%bk{q}"
        for j in range(kt):
            a = f"%acc#{acc.index((q, j))}"
            t = f"{q}_{j}"
            if v > 1:
                w(f"    %h{t} = vector.reduction <add>, {a} : {ft} into f32")
                a = f"%h{t}"
            w(f"    %r{t} = cake.warp_reduce sum {a} {{lanes = {g} : i64}} : f32")
            w(f"    %s{t} = math.fma %mtwo, %r{t}, %q{j} : f32")
            ki = "%k0i" if j == 0 else f"%ki{j}"
            ps, pk = _argmin_step(w, "    ", t, f"%s{t}", ki, (ps, pk))
        out += [ps, pk]
    w(f"    scf.yield {', '.join(out)} : {', '.join(['f32, i32'] * pp)}")
    w("  }")
    w("  %lead = arith.cmpi eq, %gl, %c0 : index")
    w("  scf.if %lead {")
    for q in range(pp):
        w(f"    cake.store %best#{2 * q + 1}, %idx[%b, %i{q}] masked : i32, !cake.tensor<[B, N], i32>")
    w("  }")
    w("  cake.return")
    w("}")
    return "\n".join(L) + "\n"
