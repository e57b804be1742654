"""Family `chunked`: KDA forward on tensor cores, chunks of 16 tokens (FlashKDA's algorithm).

One block per (V slice of 64 columns, head, sequence), 4 warps; warp w owns state rows
v = 16w .. 16w + 15 of the slice. The state S^T [64 x 128] (FlashKDA's [V, K] layout) lives in
registers as mma.sync accumulators (16 tiles of 16 x 8 per warp, fp32) and, for the products that
read it, as a bf16 copy in shared memory. Per chunk of n <= 16 tokens (rows past n are zero):

  A  (8 threads per token)  q^ = scale q/|q|, k^ = k/|k|, sigmoid(beta), and the log2-decay
                            lb log2(e) sigmoid(e^A_log (g + dt_bias))                -> shared fp32
  B  (a thread per channel) G = within-chunk cumulative log2-decay; kdec = k^ 2^G, qdec = q^ 2^G,
                            kinv = k^ 2^-G [tok][ch], krest^T = kinv 2^G_last [ch][tok] (bf16),
                            2^G_last [ch]
  (the q, k, g, v of the next chunk are copied by cp.async meanwhile, into the other buffer)
  C  (every warp)           -L = -tril(beta kdec kinv^T, -1), Mq = tril(qdec kinv^T) (warp 0 stores
                            them), W = kdec S, O = qdec S, V' = beta (v - W) -> V'^T [v][tok]
  D  (warp 0, a lane per column)   INV = (I + L)^-1 by forward substitution (fp32) -> bf16
  E  (every warp)           U = INV V' -> U^T [v][tok]
  F  (every warp)           O += Mq U -> out;  S^T = S^T 2^G_last + U^T krest^T

Operands follow m16n8k16's fragments with the reduction index permuted (the same permutation for
A and B, so every dot product is unchanged): lane (g, q) holds k = 4q .. 4q + 3 of each 16-step,
one 8-byte load per row. 2^-G reaches e^(16 |lower_bound|): the router sends lower_bound < -5
(where that could overflow) to the recurrent family.
"""

from kda_common import KV, QT, ST, ids_and_bounds, l2_norm_scales, signature, store_beta_sigmoid

C = 16                      # tokens per chunk
VB = 64                     # state columns per block
BLOCK = 128
MAX_NEG_BOUND = 5.0         # |lower_bound| this family serves (e^(16 * 5) = 5.5e34 < bf16 max)


def variants():
    return [{"chunk": C, "vb": VB}]


def name(p):
    return "kda_chunk_c{chunk}_v{vb}".format(**p)


def slices(p):
    return KV // p["vb"]


class Emitter:
    def __init__(self):
        self.lines, self.consts = [], set()

    def __call__(self, line):
        self.lines.append(line)

    def c(self, n):
        self.consts.add(n)
        return f"%c{n}"


def generate(p):
    if p != {"chunk": C, "vb": VB}:
        raise ValueError(f"illegal chunked variant {p}")
    e = Emitter()
    w, c = e, e.c
    qt, st = QT, ST
    v4, b4, b8, v2, bb2 = "vector<4xf32>", "vector<4xbf16>", "vector<8xbf16>", "vector<2xf32>", "vector<2xbf16>"
    sm = {  # name: type
        "sq": f"!cake.smem<{C}x{KV}xf32>", "sk": f"!cake.smem<{C}x{KV}xf32>",
        "sgl": f"!cake.smem<{C}x{KV}xf32>", "sb": f"!cake.smem<{C}xf32>",
        "kdec": f"!cake.smem<{C}x{KV}xbf16, pad = 16>", "qdec": f"!cake.smem<{C}x{KV}xbf16, pad = 16>",
        "kinv": f"!cake.smem<{C}x{KV}xbf16, pad = 16>", "krt": f"!cake.smem<{KV}x{C}xbf16>",
        "dl": f"!cake.smem<{KV}xf32>", "lm": f"!cake.smem<{C}x{C}xf32>",
        "mq": f"!cake.smem<{C}x{C}xbf16>", "inv": f"!cake.smem<{C}x{C}xbf16>",
        "vt": f"!cake.smem<{VB}x{C}xbf16>", "ut": f"!cake.smem<{VB}x{C}xbf16>",
        "sbf": f"!cake.smem<{VB}x{KV}xbf16, pad = 16>",
        # the next chunk's raw inputs, copied by cp.async while this one computes
        "xq": f"!cake.smem<2x{C}x{KV}xbf16>", "xk": f"!cake.smem<2x{C}x{KV}xbf16>",
        "xg": f"!cake.smem<2x{C}x{KV}xbf16>", "xv": f"!cake.smem<2x{C}x{VB}xbf16>",
    }
    order = "0, 1, 4, 5, 2, 3, 6, 7"           # (row g: k0 k1, row g+8: k0 k1, row g: k2 k3, ...)

    def afrag(buf, row_lo, row_hi, col, tag, ind="    "):
        """An A fragment (rows row_lo / row_hi, the 16 columns from `col`) from a bf16 buffer."""
        w(f"{ind}%{tag}l = cake.load %{buf}[{row_lo}, {col}] : {sm[buf]} -> {b4}")
        w(f"{ind}%{tag}h = cake.load %{buf}[{row_hi}, {col}] : {sm[buf]} -> {b4}")
        w(f"{ind}%{tag} = vector.shuffle %{tag}l, %{tag}h [{order}] : {b4}, {b4}")
        return f"%{tag}"

    # ---- signature ----
    signature(w, "chunked.py", p, name(p), BLOCK, slices(p))
    head = len(e.lines)
    w("  %i0 = arith.constant 0 : i32")
    w("  %f0 = arith.constant 0.0 : f32")
    w("  %f1 = arith.constant 1.0 : f32")
    w("  %eps = arith.constant 1.0e-06 : f32")
    w(f"  %z4 = arith.constant dense<0.0> : {v4}")
    w(f"  %one4 = arith.constant dense<1.0> : {v4}")
    ids_and_bounds(w, c(1))
    w(f"  %aexpv = vector.broadcast %aexp : f32 to {v4}")
    w("  %log2e = arith.constant 1.44269504 : f32")
    w(f"  %log2ev = vector.broadcast %log2e : f32 to {v4}")
    w("  %lb2 = arith.mulf %lb, %log2e : f32")
    w("  %nlog2e = arith.negf %log2e : f32")
    w(f"  %nlog2ev = vector.broadcast %nlog2e : f32 to {v4}")
    w(f"  %lbv = vector.broadcast %lb2 : f32 to {v4}")
    for buf, t in sm.items():
        w(f"  %{buf} = cake.alloc_smem : {t}")
    # mma roles: g = lane / 4, q = lane % 4, the lane's 4 reduction indices from 4q.
    w(f"  %rg = arith.divui %lane, {c(4)} : index")
    w(f"  %qq = arith.remui %lane, {c(4)} : index")
    w(f"  %q4 = arith.muli %qq, {c(4)} : index")
    w(f"  %q2 = arith.muli %qq, {c(2)} : index")
    w(f"  %rg8 = arith.addi %rg, {c(8)} : index")
    w(f"  %vw = arith.muli %wp, {c(16)} : index")             # the warp's first state row in the slice
    w(f"  %vbase = arith.muli %vs, {c(VB)} : index")
    for nt in range(2):                                       # the warp's two 8-column tiles of v
        w(f"  %vn{nt} = arith.addi %vw, {c(8 * nt)} : index")
        w(f"  %vb{nt} = arith.addi %vn{nt}, %rg : index")        # B rows (n = g)
        w(f"  %vc{nt} = arith.addi %vn{nt}, %q2 : index")       # C columns (2q, 2q + 1)
        w(f"  %vcg{nt} = arith.addi %vbase, %vc{nt} : index")
    w("  %vr0 = arith.addi %vw, %rg : index")                  # the warp's state rows g, g + 8
    w("  %vr1 = arith.addi %vw, %rg8 : index")
    w("  %vgr0 = arith.addi %vbase, %vr0 : index")
    w("  %vgr1 = arith.addi %vbase, %vr1 : index")
    for nt in range(16):                                      # state columns (channels)
        w(f"  %ch{nt} = arith.addi %q2, {c(8 * nt)} : index")
        w(f"  %chb{nt} = arith.addi %rg, {c(8 * nt)} : index")
    # Phase A roles: 8 threads per token, 16 channels each.
    w(f"  %ptok = arith.divui %tid, {c(8)} : index")
    w(f"  %pq = arith.remui %tid, {c(8)} : index")
    w(f"  %pch = arith.muli %pq, {c(4)} : index")
    w(f"  %plead = arith.cmpi eq, %pq, {c(0)} : index")
    for i in range(4):
        w(f"  %pc{i} = arith.addi %pch, {c(32 * i)} : index")
        w(f"  %db{i} = cake.load %dtb[%h, %pc{i}] : !cake.tensor<[H, {KV}], f32> -> {v4}")
    # cp.async roles: 16-byte pieces; q, k, g: two per thread (token ci / 16, channels 8 (ci % 16));
    # v: one (token tid / 8, columns 8 (tid % 8) of the slice).
    for r in range(2):
        w(f"  %ci{r} = arith.addi %tid, {c(128 * r)} : index")
        w(f"  %ctok{r} = arith.divui %ci{r}, {c(16)} : index")
        w(f"  %cpc{r} = arith.remui %ci{r}, {c(16)} : index")
        w(f"  %cch{r} = arith.muli %cpc{r}, {c(8)} : index")
    w(f"  %vtok = arith.divui %tid, {c(8)} : index")
    w(f"  %vpc = arith.remui %tid, {c(8)} : index")
    w(f"  %vcol = arith.muli %vpc, {c(8)} : index")
    w("  %vgcol = arith.addi %vbase, %vcol : index")
    w(f"  %w0 = arith.cmpi eq, %wp, {c(0)} : index")
    w(f"  %col = arith.remui %lane, {c(16)} : index")
    w(f"  %lo16 = arith.cmpi ult, %lane, {c(16)} : index")

    # ---- initial state: accumulators and their bf16 copy ----
    accs = [f"%s{nt}" for nt in range(16)]
    atypes = ", ".join([v4] * 16)
    w("  %useh0 = arith.cmpi ne, %use_h0, %i0 : i32")
    w(f"  %init:16 = scf.if %useh0 -> ({atypes}) {{")
    for nt in range(16):
        w(f"    %h0a{nt} = cake.load %h0[%n, %h, %vgr0, %ch{nt}] : {st} -> {v2}")
        w(f"    %h0b{nt} = cake.load %h0[%n, %h, %vgr1, %ch{nt}] : {st} -> {v2}")
        w(f"    %h0s{nt} = vector.shuffle %h0a{nt}, %h0b{nt} [0, 1, 2, 3] : {v2}, {v2}")
    w(f"    scf.yield {', '.join(f'%h0s{nt}' for nt in range(16))} : {atypes}")
    w("  } else {")
    w(f"    scf.yield {', '.join(['%z4'] * 16)} : {atypes}")
    w("  }")

    def copy_chunk(base, slot, tag, ind):
        """cp.async of the chunk at `base`'s q, k, g rows and v columns into raw slot `slot`
        (rows past T are zero-filled), one commit group; and its beta, loaded ahead."""
        for r in range(2):
            w(f"{ind}%ct{tag}{r} = arith.addi {base}, %ctok{r} : index")
            for t in ("q", "k", "g"):
                w(f"{ind}cake.cp_async %{t}[%ct{tag}{r}, %h, %cch{r}], %x{t}[{slot}, %ctok{r}, %cch{r}], "
                  f"bytes 16 masked : {qt}, {sm['x' + t]}")
        w(f"{ind}%vt{tag} = arith.addi {base}, %vtok : index")
        w(f"{ind}cake.cp_async %v[%vt{tag}, %h, %vgcol], %xv[{slot}, %vtok, %vcol], bytes 16 masked : "
          f"{qt}, {sm['xv']}")
        w(f"{ind}cake.cp_async.commit")
        w(f"{ind}%bt{tag} = arith.addi {base}, %ptok : index")
        w(f"{ind}%br{tag} = cake.load %beta[%bt{tag}, %h] masked : !cake.tensor<[T, H], bf16> -> bf16")
        return f"%br{tag}"

    def store_sbf(src, ind, tag):
        for nt in range(16):
            w(f"{ind}%sbl{tag}{nt} = vector.shuffle {src(nt)}, {src(nt)} [0, 1] : {v4}, {v4}")
            w(f"{ind}%sbh{tag}{nt} = vector.shuffle {src(nt)}, {src(nt)} [2, 3] : {v4}, {v4}")
            w(f"{ind}%sblb{tag}{nt} = arith.truncf %sbl{tag}{nt} : {v2} to {bb2}")
            w(f"{ind}%sbhb{tag}{nt} = arith.truncf %sbh{tag}{nt} : {v2} to {bb2}")
            w(f"{ind}cake.store %sblb{tag}{nt}, %sbf[%vr0, %ch{nt}] : {bb2}, {sm['sbf']}")
            w(f"{ind}cake.store %sbhb{tag}{nt}, %sbf[%vr1, %ch{nt}] : {bb2}, {sm['sbf']}")

    store_sbf(lambda nt: f"%init#{nt}", "  ", "i")
    beta0 = copy_chunk("%bos", c(0), "p", "  ")
    inits = ", ".join(f"{a} = %init#{i}" for i, a in enumerate(accs))
    w(f"  %fin:18 = scf.for %t0 = %bos to %eos step {c(C)} iter_args({inits}, %it = {c(0)}, "
      f"%brc = {beta0}) -> ({atypes}, index, bf16) {{")
    w("    cake.barrier")                  # every reader of the other raw slot (last chunk) is done
    w(f"    %slot = arith.remui %it, {c(2)} : index")
    w(f"    %nslot = arith.subi {c(1)}, %slot : index")
    w(f"    %t1 = arith.addi %t0, {c(C)} : index")
    beta1 = copy_chunk("%t1", "%nslot", "n", "    ")
    w("    cake.cp_async.wait 1")           # this chunk's group (the next one may be in flight)
    w("    cake.barrier")
    w("    %left = arith.subi %eos, %t0 : index")
    w(f"    %len = arith.minui %left, {c(C)} : index")
    # ---- A: normalized q, k, the log-decays, beta ----
    for t in ("q", "k", "g"):
        for i in range(4):
            w(f"    %{t}r{i} = cake.load %x{t}[%slot, %ptok, %pc{i}] : {sm['x' + t]} -> {b4}")
            w(f"    %{t}f{i} = arith.extf %{t}r{i} : {b4} to {v4}")
    l2_norm_scales(w, 4, 8)
    for i in range(4):
        w(f"    %qn{i} = arith.mulf %qf{i}, %qrv : {v4}")
        w(f"    %kn{i} = arith.mulf %kf{i}, %krv : {v4}")
        w(f"    cake.store %qn{i}, %sq[%ptok, %pc{i}] : {v4}, {sm['sq']}")
        w(f"    cake.store %kn{i}, %sk[%ptok, %pc{i}] : {v4}, {sm['sk']}")
        w(f"    %gb{i} = arith.addf %gf{i}, %db{i} : {v4}")
        w(f"    %gx{i} = arith.mulf %gb{i}, %aexpv : {v4}")
        w(f"    %gn{i} = arith.mulf %gx{i}, %nlog2ev : {v4}")
        w(f"    %ge{i} = math.exp2 %gn{i} : {v4}")
        w(f"    %gd{i} = arith.addf %ge{i}, %one4 : {v4}")
        w(f"    %gs{i} = arith.divf %one4, %gd{i} : {v4}")
        w(f"    %gl{i} = arith.mulf %gs{i}, %lbv : {v4}")
        w(f"    cake.store %gl{i}, %sgl[%ptok, %pc{i}] : {v4}, {sm['sgl']}")
    store_beta_sigmoid(w, "%brc", "%sb", sm["sb"])
    w("    }")
    w("    cake.barrier")
    # ---- B: the cumulative decay per channel; gated operands ----
    prev = "%f0"
    kis = []
    for i in range(C):
        w(f"    %in{i} = arith.cmpi ult, {c(i)}, %len : index")
        w(f"    %lg{i} = cake.load %sgl[{c(i)}, %tid] : {sm['sgl']} -> f32")
        w(f"    %lgm{i} = arith.select %in{i}, %lg{i}, %f0 : f32")
        w(f"    %G{i} = arith.addf {prev}, %lgm{i} : f32")
        prev = f"%G{i}"
        w(f"    %eg{i} = math.exp2 %G{i} : f32")
        w(f"    %ngi{i} = arith.negf %G{i} : f32")
        w(f"    %egi{i} = math.exp2 %ngi{i} : f32")
        w(f"    %kh{i} = cake.load %sk[{c(i)}, %tid] : {sm['sk']} -> f32")
        w(f"    %qh{i} = cake.load %sq[{c(i)}, %tid] : {sm['sq']} -> f32")
        for t, src, f in (("kd", "kh", "eg"), ("qd", "qh", "eg"), ("ki", "kh", "egi")):
            w(f"    %{t}x{i} = arith.mulf %{src}{i}, %{f}{i} : f32")
            w(f"    %{t}{i} = arith.select %in{i}, %{t}x{i}, %f0 : f32")
        for t, buf in (("kd", "kdec"), ("qd", "qdec"), ("ki", "kinv")):
            w(f"    %{t}b{i} = arith.truncf %{t}{i} : f32 to bf16")
            w(f"    cake.store %{t}b{i}, %{buf}[{c(i)}, %tid] : bf16, {sm[buf]}")
        kis.append(f"%ki{i}")
    w(f"    %dlast = math.exp2 {prev} : f32")
    w(f"    cake.store %dlast, %dl[%tid] : f32, {sm['dl']}")
    for half in range(2):
        for i in range(8 * half, 8 * half + 8):
            w(f"    %krs{i} = arith.mulf {kis[i]}, %dlast : f32")
        w(f"    %krv{half} = vector.from_elements {', '.join(f'%krs{i}' for i in range(8 * half, 8 * half + 8))} : vector<8xf32>")
        w(f"    %krb{half} = arith.truncf %krv{half} : vector<8xf32> to {b8}")
        w(f"    cake.store %krb{half}, %krt[%tid, {c(8 * half)}] : {b8}, {sm['krt']}")
    w("    cake.barrier")
    # ---- C: L, Mq (warp 0 stores them), W = kdec S and O = qdec S for the warp's columns ----
    wacc = {("w", nt): "%z4" for nt in range(2)}
    wacc.update({("o", nt): "%z4" for nt in range(2)})
    wacc.update({("l", nt): "%z4" for nt in range(2)})
    wacc.update({("m", nt): "%z4" for nt in range(2)})
    for s in range(KV // 16):
        col = f"%kc{s}"
        w(f"    {col} = arith.addi %q4, {c(16 * s)} : index")
        ak = afrag("kdec", "%rg", "%rg8", col, f"ak{s}")
        aq = afrag("qdec", "%rg", "%rg8", col, f"aq{s}")
        for nt in range(2):
            w(f"    %bs{s}_{nt} = cake.load %sbf[%vb{nt}, {col}] : {sm['sbf']} -> {b4}")
            w(f"    %tk{s}_{nt} = arith.addi %rg, {c(8 * nt)} : index")
            w(f"    %bk{s}_{nt} = cake.load %kinv[%tk{s}_{nt}, {col}] : {sm['kinv']} -> {b4}")
            for kind, a, b in (("w", ak, f"%bs{s}_{nt}"), ("o", aq, f"%bs{s}_{nt}"),
                               ("l", ak, f"%bk{s}_{nt}"), ("m", aq, f"%bk{s}_{nt}")):
                w(f"    %{kind}{s}_{nt} = cake.mma_sync {a}, {b}, {wacc[(kind, nt)]} : {b8}, {b4}, {v4}")
                wacc[(kind, nt)] = f"%{kind}{s}_{nt}"
    # V' = beta (v - W) -> V'^T [v][tok]
    w("    %bg0 = cake.load %sb[%rg] : " + sm["sb"] + " -> f32")
    w("    %bg1 = cake.load %sb[%rg8] : " + sm["sb"] + " -> f32")
    w("    %nbg0 = arith.negf %bg0 : f32")
    w("    %nbg1 = arith.negf %bg1 : f32")
    w("    %tg0 = arith.addi %t0, %rg : index")
    w("    %tg1 = arith.addi %t0, %rg8 : index")
    for nt in range(2):
        acc = wacc[("w", nt)]
        for x in range(2):
            w(f"    %vrow{nt}_{x} = arith.addi %vc{nt}, {c(x)} : index")
        for r in range(2):
            w(f"    %vv{nt}_{r} = cake.load %xv[%slot, %rg{'8' if r else ''}, %vc{nt}] : {sm['xv']} -> {bb2}")
            w(f"    %vf{nt}_{r} = arith.extf %vv{nt}_{r} : {bb2} to {v2}")
            w(f"    %wp{nt}_{r} = vector.shuffle {acc}, {acc} [{2 * r}, {2 * r + 1}] : {v4}, {v4}")
            w(f"    %vd{nt}_{r} = arith.subf %vf{nt}_{r}, %wp{nt}_{r} : {v2}")
            w(f"    %bgv{nt}_{r} = vector.broadcast %bg{r} : f32 to {v2}")
            w(f"    %vp{nt}_{r} = arith.mulf %vd{nt}_{r}, %bgv{nt}_{r} : {v2}")
            w(f"    %vpb{nt}_{r} = arith.truncf %vp{nt}_{r} : {v2} to {bb2}")
            for x in range(2):
                w(f"    %vpe{nt}_{r}_{x} = vector.extract %vpb{nt}_{r}[{x}] : bf16 from {bb2}")
                w(f"    cake.store %vpe{nt}_{r}_{x}, %vt[%vrow{nt}_{x}, %rg{'8' if r else ''}] : bf16, {sm['vt']}")
    # L (strictly lower, times beta of the row) and Mq (lower, diagonal included): warp 0 stores.
    w("    scf.if %w0 {")
    for nt in range(2):
        for r in range(2):
            row = "%rg8" if r else "%rg"
            for x in range(2):
                w(f"      %jj{nt}_{r}_{x} = arith.addi %q2, {c(8 * nt + x)} : index")
                w(f"      %lt{nt}_{r}_{x} = arith.cmpi ult, %jj{nt}_{r}_{x}, {row} : index")
                w(f"      %le{nt}_{r}_{x} = arith.cmpi ule, %jj{nt}_{r}_{x}, {row} : index")
                w(f"      %le_{nt}_{r}_{x} = vector.extract {wacc[('l', nt)]}[{2 * r + x}] : f32 from {v4}")
                w(f"      %lb_{nt}_{r}_{x} = arith.mulf %le_{nt}_{r}_{x}, %nbg{r} : f32")
                w(f"      %ls{nt}_{r}_{x} = arith.select %lt{nt}_{r}_{x}, %lb_{nt}_{r}_{x}, %f0 : f32")
                w(f"      cake.store %ls{nt}_{r}_{x}, %lm[{row}, %jj{nt}_{r}_{x}] : f32, {sm['lm']}")
                w(f"      %me_{nt}_{r}_{x} = vector.extract {wacc[('m', nt)]}[{2 * r + x}] : f32 from {v4}")
                w(f"      %ms{nt}_{r}_{x} = arith.select %le{nt}_{r}_{x}, %me_{nt}_{r}_{x}, %f0 : f32")
                w(f"      %msb{nt}_{r}_{x} = arith.truncf %ms{nt}_{r}_{x} : f32 to bf16")
                w(f"      cake.store %msb{nt}_{r}_{x}, %mq[{row}, %jj{nt}_{r}_{x}] : bf16, {sm['mq']}")
    w("    }")
    w("    cake.barrier")
    # ---- D: INV = (I + L)^-1, column `col` per lane of warp 0 (lanes 16..31 repeat 0..15) ----
    w("    scf.if %w0 {")
    xs = []
    for i in range(C):
        w(f"      %isd{i} = arith.cmpi eq, %col, {c(i)} : index")
        w(f"      %x0_{i} = arith.select %isd{i}, %f1, %f0 : f32")
        xs.append(f"%x0_{i}")
    for j in range(C - 1):
        for i in range(j + 1, C):
            w(f"      %nL{i}_{j} = cake.load %lm[{c(i)}, {c(j)}] : {sm['lm']} -> f32")
            w(f"      %x{j + 1}_{i} = math.fma %nL{i}_{j}, {xs[j]}, {xs[i]} : f32")
            xs[i] = f"%x{j + 1}_{i}"
    w("      scf.if %lo16 {")
    for i in range(C):
        w(f"        %xb{i} = arith.truncf {xs[i]} : f32 to bf16")
        w(f"        cake.store %xb{i}, %inv[{c(i)}, %col] : bf16, {sm['inv']}")
    w("      }")
    w("    }")
    w("    cake.barrier")
    # ---- E: U = INV V' -> U^T [v][tok] ----
    ai = afrag("inv", "%rg", "%rg8", "%q4", "ai")
    for nt in range(2):
        w(f"    %bv{nt} = cake.load %vt[%vb{nt}, %q4] : {sm['vt']} -> {b4}")
        w(f"    %u{nt} = cake.mma_sync {ai}, %bv{nt}, %z4 : {b8}, {b4}, {v4}")
        w(f"    %ub{nt} = arith.truncf %u{nt} : {v4} to {b4}")
        for r in range(2):
            for x in range(2):
                w(f"    %ue{nt}_{r}_{x} = vector.extract %ub{nt}[{2 * r + x}] : bf16 from {b4}")
                w(f"    cake.store %ue{nt}_{r}_{x}, %ut[%vrow{nt}_{x}, %rg{'8' if r else ''}] : bf16, {sm['ut']}")
    w("    cake.barrier")
    # ---- F: O += Mq U -> out; S^T = S^T e^G_last + U^T krest^T ----
    am = afrag("mq", "%rg", "%rg8", "%q4", "am")
    for nt in range(2):
        w(f"    %bu{nt} = cake.load %ut[%vb{nt}, %q4] : {sm['ut']} -> {b4}")
        w(f"    %of{nt} = cake.mma_sync {am}, %bu{nt}, {wacc[('o', nt)]} : {b8}, {b4}, {v4}")
        w(f"    %ob{nt} = arith.truncf %of{nt} : {v4} to {b4}")
        for r in range(2):
            w(f"    %op{nt}_{r} = vector.shuffle %ob{nt}, %ob{nt} [{2 * r}, {2 * r + 1}] : {b4}, {b4}")
    for r in range(2):
        w(f"    %oin{r} = arith.cmpi ult, %rg{'8' if r else ''}, %len : index")
        w(f"    scf.if %oin{r} {{")
        for nt in range(2):
            w(f"      cake.store %op{nt}_{r}, %o[%tg{r}, %h, %vcg{nt}] : {bb2}, {qt}")
        w("    }")
    au = afrag("ut", "%vr0", "%vr1", "%q4", "au")
    new = []
    for nt in range(16):
        w(f"    %bkr{nt} = cake.load %krt[%chb{nt}, %q4] : {sm['krt']} -> {b4}")
        w(f"    %dd{nt} = cake.load %dl[%ch{nt}] : {sm['dl']} -> {v2}")
        w(f"    %dd4_{nt} = vector.shuffle %dd{nt}, %dd{nt} [0, 1, 0, 1] : {v2}, {v2}")
        w(f"    %sd{nt} = arith.mulf {accs[nt]}, %dd4_{nt} : {v4}")
        w(f"    %sn{nt} = cake.mma_sync {au}, %bkr{nt}, %sd{nt} : {b8}, {b4}, {v4}")
        new.append(f"%sn{nt}")
    store_sbf(lambda nt: f"%sn{nt}", "    ", "n")
    w(f"    %it1 = arith.addi %it, {c(1)} : index")
    w(f"    scf.yield {', '.join(new)}, %it1, {beta1} : {atypes}, index, bf16")
    w("  }")
    # The last iteration prefetched a chunk past the sequence: retire it before the block exits
    # (async.cp-async-pending-at-exit).
    w("  cake.cp_async.wait 0")
    w("  %storeht = arith.cmpi ne, %store_ht, %i0 : i32")
    w("  scf.if %storeht {")
    for nt in range(16):
        for r in range(2):
            w(f"    %fs{nt}_{r} = vector.shuffle %fin#{nt}, %fin#{nt} [{2 * r}, {2 * r + 1}] : {v4}, {v4}")
            w(f"    cake.store %fs{nt}_{r}, %ht[%n, %h, %vgr{r}, %ch{nt}] : {v2}, {st}")
    w("  }")
    w("  cake.return")
    w("}")
    consts = [f"  %c{x} = arith.constant {x} : index" for x in sorted(e.consts)]
    return "\n".join(e.lines[:head] + consts + e.lines[head:]) + "\n"
