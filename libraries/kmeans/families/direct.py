"""Family `direct`: any dtype, D up to `dmax`, no tensor cores and no staging pass: the kernel reads
the user's tensors as they are (any D, any alignment), so a call is one launch. One thread per
point, `pts` points per block. The block stages its point rows (f32, odd row pitch: conflict-free
column reads) and, tile by tile, `tk` centroids transposed (cs[d, k]: one broadcast 16-byte read
serves four centroids) with their |c|^2 (+inf past K, so padded centroids never win). Each thread
keeps tk/4 vector accumulators; ties keep the lower index (strict <, tiles in order). Meant for
small problems (launch latency) and small K (bound by reading x once).
"""
from .common import DTYPES, _argmin_step, _unstaged_head

DIRECT_CONFIGS = tuple((pts, tk, dmax) for dmax, pts in ((16, 128), (64, 128), (128, 128), (256, 64))
                       for tk in (8, 32))


STAGE_UNROLL = 8                # loads in flight per thread while staging


def direct_name(p):
    return "km_{t}_direct_p{pts}_k{tk}_d{dmax}".format(t=DTYPES[p["dtype"]][0], **p)


def direct_variants(dtypes=DTYPES):
    return [{"dtype": d, "pts": pts, "tk": tk, "dmax": dmax}
            for d in dtypes for pts, tk, dmax in DIRECT_CONFIGS]


def generate_direct(p):
    ty = DTYPES[p["dtype"]][0]
    pts, tk, dmax = p["pts"], p["tk"], p["dmax"]
    if (pts, tk, dmax) not in DIRECT_CONFIGS:
        raise ValueError("illegal direct variant %s" % p)
    q = tk // 4
    xt, ct = f"!cake.tensor<[B, N, D], {ty}>", f"!cake.tensor<[B, K, D], {ty}>"
    xst, cst, qst = (f"!cake.smem<{pts}x{dmax}xf32, pad = 1>", f"!cake.smem<{dmax}x{tk}xf32, pad = 4>",
                     f"!cake.smem<{tk}xf32>")
    v4 = "vector<4xf32>"
    L = []
    w = L.append

    def stage(ind, tag, tensor, t, row0, rows, last, smem, st, transposed):
        """smem[r, j] (or [j, r]) = f32(tensor[b, min(row0 + r, last), j]) for r < rows,
        j < min(D, dmax). Rows past the tensor repeat its last row: harmless (a point's result
        is not stored, a centroid's |c|^2 is +inf) and the loads need no bounds branch, so
        STAGE_UNROLL of them are in flight at once."""
        w(f"{ind}%{tag}cnt = arith.muli %dl, %c{rows} : index")
        w(f"{ind}scf.for %{tag}e0 = %tid to %{tag}cnt step %cstage {{")
        for u in range(STAGE_UNROLL):
            e = f"%{tag}e{u}"
            if u:
                w(f"{ind}  {e} = arith.addi %{tag}e0, %cu{u} : index")
            w(f"{ind}  %{tag}r{u} = arith.divui {e}, %dl : index")
            w(f"{ind}  %{tag}j{u} = arith.remui {e}, %dl : index")
            w(f"{ind}  %{tag}rc{u} = arith.minui %{tag}r{u}, %c{rows - 1} : index")
            w(f"{ind}  %{tag}a{u} = arith.addi {row0}, %{tag}rc{u} : index")
            w(f"{ind}  %{tag}g{u} = arith.minui %{tag}a{u}, {last} : index")
            w(f"{ind}  %{tag}v{u}{'' if ty == 'f32' else 'h'} = "
              f"cake.load {tensor}[%b, %{tag}g{u}, %{tag}j{u}] : {t} -> {ty}")
        for u in range(STAGE_UNROLL):
            if ty != "f32":
                w(f"{ind}  %{tag}v{u} = arith.extf %{tag}v{u}h : {ty} to f32")
            w(f"{ind}  %{tag}in{u} = arith.cmpi ult, %{tag}e{u}, %{tag}cnt : index")
            w(f"{ind}  scf.if %{tag}in{u} {{")
            at = f"%{tag}j{u}, %{tag}rc{u}" if transposed else f"%{tag}rc{u}, %{tag}j{u}"
            w(f"{ind}    cake.store %{tag}v{u}, {smem}[{at}] : f32, {st}")
            w(f"{ind}  }}")
        w(f"{ind}}}")

    _unstaged_head(w, p, direct_name(p), pts, pts)
    for v in sorted({0, 1, 4, pts, tk, dmax, pts - 1, tk - 1}):
        w(f"  %c{v} = arith.constant {v} : index")
    w("  %inf = arith.constant 0x7F800000 : f32")
    w(f"  %zero4 = arith.constant dense<0.0> : {v4}")
    w(f"  %mtwo4 = arith.constant dense<-2.0> : {v4}")
    w("  %kdim = cake.problem_size \"K\"")
    w("  %ddim = cake.problem_size \"D\"")
    w(f"  %dl = arith.minui %ddim, %c{dmax} : index")
    w("  %ndim = cake.problem_size \"N\"")
    w("  %nlast = arith.subi %ndim, %c1 : index")
    w("  %klast = arith.subi %kdim, %c1 : index")
    w("  %bx = cake.block_id x")
    w("  %b = cake.block_id y")
    w("  %tid = cake.thread_id x")
    w(f"  %i0 = arith.muli %bx, %c{pts} : index")
    w(f"  %xs = cake.alloc_smem : {xst}")
    w(f"  %cs = cake.alloc_smem : {cst}")
    w(f"  %qs = cake.alloc_smem : {qst}")
    w(f"  // The block's point rows: the flat range of rows x columns, {STAGE_UNROLL} loads in flight per")
    w("  // thread (consecutive threads, consecutive columns: coalesced).")
    stage("  ", "x", "%x", xt, "%i0", pts, "%nlast", "%xs", xst, transposed=False)
    w("  %kbig = arith.index_cast %kdim : index to i32")
    w(f"  %best:2 = scf.for %k0 = %c0 to %kdim step %c{tk} iter_args(%bs = %inf, %bk = %kbig) "
      "-> (f32, i32) {")
    w("    // Centroid tile, transposed; rows past K have |c|^2 = +inf.")
    stage("    ", "c", "%c", ct, "%k0", tk, "%klast", "%cs", cst, transposed=True)
    w(f"    scf.for %r = %tid to %c{tk} step %c{pts} {{")
    w("      %gk = arith.addi %k0, %r : index")
    w("      %qv = cake.load %csq[%b, %gk] masked pad(%inf : f32) : !cake.tensor<[B, K], f32> -> f32")
    w(f"      cake.store %qv, %qs[%r] : f32, {qst}")
    w("    }")
    w("    cake.barrier")
    accs = ", ".join(f"%a{i} = %zero4" for i in range(q))
    types = ", ".join([v4] * q)
    w(f"    %acc:{q} = scf.for %d = %c0 to %dl step %c1 iter_args({accs}) -> ({types}) {{")
    w(f"      %xv = cake.load %xs[%tid, %d] : {xst} -> f32")
    w(f"      %xb = vector.broadcast %xv : f32 to {v4}")
    for i in range(q):
        w(f"      %cv{i} = cake.load %cs[%d, {'%o' + str(i) if i else '%c0'}] : {cst} -> {v4}")
    for i in range(q):
        w(f"      %n{i} = vector.fma %xb, %cv{i}, %a{i} : {v4}")
    w(f"      scf.yield {', '.join(f'%n{i}' for i in range(q))} : {types}")
    w("    }")
    w("    %k0i = arith.index_cast %k0 : index to i32")
    prev_s, prev_k = "%bs", "%bk"
    for i in range(q):
        w(f"    %q{i} = cake.load %qs[{'%o' + str(i) if i else '%c0'}] : {qst} -> {v4}")
        w(f"    %s{i} = vector.fma %mtwo4, %acc#{i}, %q{i} : {v4}")
        for e in range(4):
            j = 4 * i + e
            w(f"    %e{j} = vector.extract %s{i}[{e}] : f32 from {v4}")
            w(f"    %ki{j} = arith.addi %k0i, %l{j} : i32")
            prev_s, prev_k = _argmin_step(w, "    ", j, f"%e{j}", f"%ki{j}", (prev_s, prev_k))
    w("    cake.barrier")
    w(f"    scf.yield {prev_s}, {prev_k} : f32, i32")
    w("  }")
    w("  %gi = arith.addi %i0, %tid : index")
    w("  cake.store %best#1, %idx[%b, %gi] masked : i32, !cake.tensor<[B, N], i32>")
    w("  cake.return")
    w("}")
    # Offsets and lane indices used above, defined with the constants.
    extra = [f"  %o{i} = arith.constant {4 * i} : index" for i in range(1, q)]
    extra += [f"  %cu{u} = arith.constant {u * pts} : index" for u in range(1, STAGE_UNROLL)]
    extra += [f"  %cstage = arith.constant {STAGE_UNROLL * pts} : index"]
    extra += [f"  %l{j} = arith.constant {j} : i32" for j in range(tk)]
    at = next(n for n, line in enumerate(L) if line.startswith("  %inf"))
    L[at:at] = extra
    return "\n".join(L) + "\n"
