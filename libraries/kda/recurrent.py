"""Family `recurrent`: KDA forward as the token recurrence on CUDA cores, fp32 state (K = V = 128).

Per sequence n and head h the state S [K, V] evolves, token by token (FlashKDA's and fla's
semantics, natural-log gates):

    a = exp(lower_bound * sigmoid(exp(A_log[h]) * (g_t + dt_bias[h])))     per channel, in (0, 1]
    q^ = q_t / sqrt(|q_t|^2 + 1e-6),  k^ likewise,  b = sigmoid(beta_t)
    S <- diag(a) S;   u = k^T S;   S <- S + b k^ (v_t - u)^T;   out_t = scale * q^T S

Columns of S are independent, so the grid is (V slices, H, N): 8 consecutive lanes own one column
(lane j of the group holds channels 32m + 4j + e, m, e < 4: the group's 16-byte reads of a token's
row are one contiguous 128 bytes), and `cpt` columns per thread share the loads. With
as = a * S, one token is

    u = k^ . as,  qs = scale q^ . as   (8-lane sums),  w = b (v - u),
    S <- as + w k^,  out = qs + w (scale q^ . k^)

so the chain from one token to the next is two dot products and a 3-step butterfly: the gates,
norms and q^ . k^ are computed per chunk of `chunk` tokens by the whole block beforehand
(shared memory, fp32) and never wait on the state. The decay is a factor in (0, 1] applied to S
and never divided by: no gate, however negative, overflows (a chunked form's exp(-G) does).

Variable-length batches: sequence n is tokens cu_seqlens[n] .. cu_seqlens[n + 1] of the packed
[T, H, 128] tensors; an empty sequence passes its initial state through.
"""

from kda_common import (KV, QT, ST, fma_chain, ids_and_bounds, l2_norm_scales, signature,
                        store_beta_sigmoid)

BLOCK = 128                      # threads: 4 warps of 4 column groups of 8 lanes
CHUNKS = (16, 32)
COLUMNS_PER_THREAD = (1, 2)


def variants():
    return [{"chunk": c, "cpt": p} for c in CHUNKS for p in COLUMNS_PER_THREAD]


def name(p):
    return "kda_rec_c{chunk}_p{cpt}".format(**p)


def slices(p):
    """Blocks per (sequence, head): each owns 16 * cpt columns of V."""
    return KV // (16 * p["cpt"])


def generate(p):
    C, cpt = p["chunk"], p["cpt"]
    if C not in CHUNKS or cpt not in COLUMNS_PER_THREAD:
        raise ValueError(f"illegal recurrent variant {p}")
    tpt = BLOCK // C                 # precompute: threads per token
    cw = KV // tpt                   # precompute: channels per thread (4-wide steps)
    cols = 16 * cpt                  # columns per block
    vw = cols // tpt                 # precompute: v columns per thread
    L = []
    w = L.append
    qt, st = QT, ST
    v4 = "vector<4xf32>"
    signature(w, "recurrent.py", p, name(p), BLOCK, slices(p))
    consts = {0, 1, 2, 4, 8, 32, C, tpt, cw, cols, vw, cpt} | {4 * i for i in range(cw // 4)} | \
        {32 * m for m in range(4)} | set(range(cpt))
    for c in sorted(consts):
        w(f"  %c{c} = arith.constant {c} : index")
    w("  %i0 = arith.constant 0 : i32")
    w("  %f0 = arith.constant 0.0 : f32")
    w("  %f1 = arith.constant 1.0 : f32")
    w("  %eps = arith.constant 1.0e-06 : f32")
    w(f"  %z4 = arith.constant dense<0.0> : {v4}")
    ids_and_bounds(w, "%c1")
    # Recurrence roles: group (column) and lane in group (channels).
    w("  %j = arith.remui %lane, %c8 : index")
    w("  %grp = arith.divui %lane, %c8 : index")
    w("  %wg = arith.muli %wp, %c4 : index")
    w("  %gi = arith.addi %wg, %grp : index")
    w(f"  %cl0 = arith.muli %gi, %c{cpt} : index")          # the thread's first column in the block
    w(f"  %vbase = arith.muli %vs, %c{cols} : index")
    w("  %col0 = arith.addi %vbase, %cl0 : index")
    w("  %j4 = arith.muli %j, %c4 : index")
    for m in range(4):
        w(f"  %off{m} = arith.addi %j4, %c{32 * m} : index")
    for c in range(cpt):
        w(f"  %cl{c}x = arith.addi %cl0, %c{c} : index")
        w(f"  %col{c}x = arith.addi %col0, %c{c} : index")
    w("  %lead = arith.cmpi eq, %j, %c0 : index")
    # Precompute roles: token and channels.
    w(f"  %ptok = arith.divui %tid, %c{tpt} : index")
    w(f"  %pq = arith.remui %tid, %c{tpt} : index")
    w(f"  %pch = arith.muli %pq, %c{cw} : index")
    w(f"  %pvc = arith.muli %pq, %c{vw} : index")
    w("  %pvcol = arith.addi %vbase, %pvc : index")
    w("  %plead = arith.cmpi eq, %pq, %c0 : index")
    w(f"  %sa = cake.alloc_smem : !cake.smem<{C}x{KV}xf32>")
    w(f"  %sk = cake.alloc_smem : !cake.smem<{C}x{KV}xf32>")
    w(f"  %sq = cake.alloc_smem : !cake.smem<{C}x{KV}xf32>")
    w(f"  %sv = cake.alloc_smem : !cake.smem<{C}x{cols}xbf16>")
    w(f"  %sb = cake.alloc_smem : !cake.smem<{C}xf32>")
    w(f"  %sqk = cake.alloc_smem : !cake.smem<{C}xf32>")
    # dt_bias of the thread's precompute channels: the same every chunk.
    for i in range(cw // 4):
        w(f"  %pc{i} = arith.addi %pch, %c{4 * i} : index")
        w(f"  %db{i} = cake.load %dtb[%h, %pc{i}] : !cake.tensor<[H, {KV}], f32> -> {v4}")
    w(f"  %aexpv = vector.broadcast %aexp : f32 to {v4}")
    w(f"  %lbv = vector.broadcast %lb : f32 to {v4}")
    w(f"  %one4 = arith.constant dense<1.0> : {v4}")
    # Initial state.
    state = [f"%s{c}_{m}" for c in range(cpt) for m in range(4)]
    stypes = ", ".join([v4] * len(state))
    w("  %useh0 = arith.cmpi ne, %use_h0, %i0 : i32")
    w(f"  %init:{len(state)} = scf.if %useh0 -> ({stypes}) {{")
    for c in range(cpt):
        for m in range(4):
            w(f"    %h0_{c}_{m} = cake.load %h0[%n, %h, %col{c}x, %off{m}] : {st} -> {v4}")
    w(f"    scf.yield {', '.join(f'%h0_{c}_{m}' for c in range(cpt) for m in range(4))} : {stypes}")
    w("  } else {")
    w(f"    scf.yield {', '.join(['%z4'] * len(state))} : {stypes}")
    w("  }")
    vt = "bf16" if vw == 1 else f"vector<{vw}xbf16>"
    raw = [(f"{t}r{i}", "vector<4xbf16>") for t in ("q", "k", "g") for i in range(cw // 4)] + \
        [("vr", vt), ("br", "bf16")]

    def load_raw(ind, base, tag):
        """The chunk at `base`'s inputs this thread turns into shared-memory rows: loaded one
        chunk ahead, so their latency hides behind the previous chunk's recurrence."""
        w(f"{ind}%tt{tag} = arith.addi {base}, %ptok : index")
        for t in ("q", "k", "g"):
            for i in range(cw // 4):
                w(f"{ind}%{t}r{i}{tag} = cake.load %{t}[%tt{tag}, %h, %pc{i}] masked : {qt} -> vector<4xbf16>")
        w(f"{ind}%vr{tag} = cake.load %v[%tt{tag}, %h, %pvcol] masked : {qt} -> {vt}")
        w(f"{ind}%br{tag} = cake.load %beta[%tt{tag}, %h] masked : !cake.tensor<[T, H], bf16> -> bf16")
        return [f"%{r}{tag}" for r, _ in raw]

    first = load_raw("  ", "%bos", "_p")
    carried = state + [f"%{r}" for r, _ in raw]
    ctypes_ = [v4] * len(state) + [t for _, t in raw]
    inits = ", ".join(f"{s} = %init#{i}" for i, s in enumerate(state)) + ", " + \
        ", ".join(f"%{r}c = {x}" for (r, _), x in zip(raw, first))
    w(f"  %fin:{len(carried)} = scf.for %t0 = %bos to %eos step %c{C} iter_args({inits}) -> "
      f"({', '.join(ctypes_)}) {{")
    # ---- precompute the chunk's gates, normalized q and k, q^.k^, beta and v ----
    w("    cake.barrier")                      # the previous chunk's readers are done
    for t in ("q", "k", "g"):
        for i in range(cw // 4):
            w(f"    %{t}f{i} = arith.extf %{t}r{i}c : vector<4xbf16> to {v4}")
    l2_norm_scales(w, cw // 4, tpt)
    prev = None
    for i in range(cw // 4):
        w(f"    %qn{i} = arith.mulf %qf{i}, %qrv : {v4}")
        w(f"    %kn{i} = arith.mulf %kf{i}, %krv : {v4}")
        w(f"    cake.store %qn{i}, %sq[%ptok, %pc{i}] : {v4}, !cake.smem<{C}x{KV}xf32>")
        w(f"    cake.store %kn{i}, %sk[%ptok, %pc{i}] : {v4}, !cake.smem<{C}x{KV}xf32>")
        if prev is None:
            w(f"    %qk{i} = arith.mulf %qn{i}, %kn{i} : {v4}")
        else:
            w(f"    %qk{i} = math.fma %qn{i}, %kn{i}, {prev} : {v4}")
        prev = f"%qk{i}"
        # decay = exp(lb * sigmoid(aexp * (g + dt_bias)))
        w(f"    %gb{i} = arith.addf %gf{i}, %db{i} : {v4}")
        w(f"    %gx{i} = arith.mulf %gb{i}, %aexpv : {v4}")
        w(f"    %gn{i} = arith.negf %gx{i} : {v4}")
        w(f"    %ge{i} = math.exp %gn{i} : {v4}")
        w(f"    %gd{i} = arith.addf %ge{i}, %one4 : {v4}")
        w(f"    %gs{i} = arith.divf %one4, %gd{i} : {v4}")
        w(f"    %gl{i} = arith.mulf %gs{i}, %lbv : {v4}")
        w(f"    %ga{i} = math.exp %gl{i} : {v4}")
        w(f"    cake.store %ga{i}, %sa[%ptok, %pc{i}] : {v4}, !cake.smem<{C}x{KV}xf32>")
    w(f"    %qkp = vector.reduction <add>, {prev} : {v4} into f32")
    w(f"    %qks = cake.warp_reduce sum %qkp {{lanes = {tpt} : i64}} : f32")
    w(f"    cake.store %vrc, %sv[%ptok, %pvc] : {vt}, !cake.smem<{C}x{cols}xbf16>")
    store_beta_sigmoid(w, "%brc", "%sb", f"!cake.smem<{C}xf32>")
    w(f"      cake.store %qks, %sqk[%ptok] : f32, !cake.smem<{C}xf32>")
    w("    }")
    w(f"    %t1 = arith.addi %t0, %c{C} : index")
    nxt = load_raw("    ", "%t1", "_n")
    w("    cake.barrier")
    # ---- the recurrence over the chunk's tokens ----
    w("    %left = arith.subi %eos, %t0 : index")
    w(f"    %len = arith.minui %left, %c{C} : index")
    inner = ", ".join(f"%r{c}_{m} = {s}" for (c, m), s in zip(
        [(c, m) for c in range(cpt) for m in range(4)], state))
    w(f"    %nxt:{len(state)} = scf.for %i = %c0 to %len step %c1 iter_args({inner}) -> ({stypes}) {{")
    for t, buf in (("a", "%sa"), ("k", "%sk"), ("q", "%sq")):
        for m in range(4):
            w(f"      %{t}{m} = cake.load {buf}[%i, %off{m}] : !cake.smem<{C}x{KV}xf32> -> {v4}")
    w(f"      %bt = cake.load %sb[%i] : !cake.smem<{C}xf32> -> f32")
    w(f"      %qkt = cake.load %sqk[%i] : !cake.smem<{C}xf32> -> f32")
    w("      %ti = arith.addi %t0, %i : index")
    new, outs = [], []
    for c in range(cpt):
        for m in range(4):
            w(f"      %as{c}_{m} = arith.mulf %a{m}, %r{c}_{m} : {v4}")
        for t in ("k", "q"):
            prev = fma_chain(w, "      ", [f"%d{t}{c}_{m}" for m in range(4)],
                             [(f"%{t}{m}", f"%as{c}_{m}") for m in range(4)], v4)
            w(f"      %p{t}{c} = vector.reduction <add>, {prev} : {v4} into f32")
        w(f"      %u{c} = cake.warp_reduce sum %pk{c} {{lanes = 8 : i64}} : f32")
        w(f"      %qs{c} = cake.warp_reduce sum %pq{c} {{lanes = 8 : i64}} : f32")
        w(f"      %vb{c} = cake.load %sv[%i, %cl{c}x] : !cake.smem<{C}x{cols}xbf16> -> bf16")
        w(f"      %vf{c} = arith.extf %vb{c} : bf16 to f32")
        w(f"      %vu{c} = arith.subf %vf{c}, %u{c} : f32")
        w(f"      %w{c} = arith.mulf %bt, %vu{c} : f32")
        w(f"      %o{c} = math.fma %w{c}, %qkt, %qs{c} : f32")
        w(f"      %wv{c} = vector.broadcast %w{c} : f32 to {v4}")
        for m in range(4):
            w(f"      %n{c}_{m} = math.fma %wv{c}, %k{m}, %as{c}_{m} : {v4}")
            new.append(f"%n{c}_{m}")
        outs.append(f"%o{c}")
    w("      scf.if %lead {")
    if cpt == 1:
        w("        %ob = arith.truncf %o0 : f32 to bf16")
        w(f"        cake.store %ob, %o[%ti, %h, %col0] : bf16, {qt}")
    else:
        w(f"        %ov = vector.from_elements {', '.join(outs)} : vector<{cpt}xf32>")
        w(f"        %ob = arith.truncf %ov : vector<{cpt}xf32> to vector<{cpt}xbf16>")
        w(f"        cake.store %ob, %o[%ti, %h, %col0] : vector<{cpt}xbf16>, {qt}")
    w("      }")
    w(f"      scf.yield {', '.join(new)} : {stypes}")
    w("    }")
    w(f"    scf.yield {', '.join([f'%nxt#{i}' for i in range(len(state))] + nxt)} : {', '.join(ctypes_)}")
    w("  }")
    w("  %storeht = arith.cmpi ne, %store_ht, %i0 : i32")
    w("  scf.if %storeht {")
    for c in range(cpt):
        for m in range(4):
            w(f"    cake.store %fin#{4 * c + m}, %ht[%n, %h, %col{c}x, %off{m}] : {v4}, {st}")
    w("  }")
    w("  cake.return")
    w("}")
    return "\n".join(L) + "\n"
