"""Pass 1 of the `wy` family: every chunk's operands in parallel (wy.py has the design)."""

from kda_common import KV, QT, l2_norm_scales, store_beta_sigmoid
from wy_common import (B4, B8, BB2, C, PERM, PREP_BLOCK, PREP_MIN_BLOCKS, V2, V4, WORKSPACE, Emitter,
                       afrag, header, prep_name, sequence_bounds, slot_sequence, ws_type)


def generate_prep(layout="frag"):
    """Pass 1; `layout` "frag" (mma.sync fragment order, WORKSPACE) or "nat" (row-major:
    kdec/qdec [tok][ch], krest^T [ch][tok], Mq/INVb [tok][tok'], the wgmma pass's B tiles)."""
    frag = layout == "frag"
    e = Emitter()
    w, c = e, e.c
    params = [("q", QT, "q"), ("k", QT, "k"), ("g", QT, "g"),
              ("beta", "!cake.tensor<[T, H], bf16>", "beta"), ("alog", "!cake.tensor<[H], f32>", "A_log"),
              ("dtb", f"!cake.tensor<[H, {KV}], f32>", "dt_bias"), ("cu", "!cake.tensor<[S], i64>", "cu_seqlens")]
    params += [(n, ws_type(n), n) for n in WORKSPACE]
    params += [("scale", "f32", "scale"), ("lb", "f32", "lower_bound"), ("slo", "i64", "slot_lo")]
    header(w, {"chunk": C, "layout": layout}, prep_name(layout), params, PREP_BLOCK, "p, h, 1",
           PREP_MIN_BLOCKS)
    head = len(e.lines)
    # Shared memory holds per-token scalars and the bf16 operands only (about 15 KB: occupancy);
    # phase B reads q, k and g again from global memory (L1/L2 hits) instead of from f32 copies.
    sm = {"sqs": f"!cake.smem<{C}xf32>", "sks": f"!cake.smem<{C}xf32>", "sb": f"!cake.smem<{C}xf32>",
          "kdec": f"!cake.smem<{C}x{KV}xbf16, pad = 16>", "qdec": f"!cake.smem<{C}x{KV}xbf16, pad = 16>",
          "kinv": f"!cake.smem<{C}x{KV}xbf16, pad = 16>", "lm": f"!cake.smem<{C}x{C}xf32>"}
    for line in ("%tid = cake.thread_id x", "%lane = cake.lane_id", "%wp = cake.warp_id",
                 "%slb = cake.block_id x", "%h = cake.block_id y"):
        w("  " + line)
    # The launch's P slots start at slot_lo (kda_fwd may split a call's slots over launches).
    w("  %slo_i = arith.index_cast %slo : i64 to index")
    w("  %sl = arith.addi %slb, %slo_i : index")
    slot_sequence(w, c)
    sequence_bounds(w, c)
    # A slot past the sequence's chunks (or, with offsets kda_fwd did not validate, before them)
    # has no chunk: t0 >= eos (wrapping arithmetic keeps it inside the tensors either way).
    w("  %j = arith.subi %sl, %slot0 : index")
    w(f"  %j16 = arith.muli %j, {c(C)} : index")
    w("  %t0 = arith.addi %bos, %j16 : index")
    w("  %slot = arith.addi %sl, %c0 : index")
    w("  %live = arith.cmpi ult, %t0, %eos : index")
    w("  scf.if %live {")
    ind = "    "
    for line in ("%f0 = arith.constant 0.0 : f32", "%f1 = arith.constant 1.0 : f32",
                 "%eps = arith.constant 1.0e-06 : f32",
                 f"%z4 = arith.constant dense<0.0> : {V4}", "%log2e = arith.constant 1.44269504 : f32"):
        w(ind + line)
    w(f"{ind}%alogh = cake.load %alog[%h] : !cake.tensor<[H], f32> -> f32")
    w(f"{ind}%aexp = math.exp %alogh : f32")
    w(f"{ind}%nlog2e = arith.negf %log2e : f32")
    w(f"{ind}%lb2 = arith.mulf %lb, %log2e : f32")
    for buf, t in sm.items():
        w(f"{ind}%{buf} = cake.alloc_smem : {t}")
    w(f"{ind}%left = arith.subi %eos, %t0 : index")
    w(f"{ind}%len = arith.minui %left, {c(C)} : index")
    # ---- A: 8 threads per token: scale / |q|, 1 / |k|, sigmoid(beta) (zero past the end) ----
    token_scales(w, c, ind, sm)
    w(f"{ind}cake.barrier")
    # ---- B: a thread per channel: cumulative decay, gated operands (shared and workspace) ----
    # The log2-decay of token i and channel tid is lb sigmoid(exp(A_log) (g + dt_bias)) log2(e),
    # zero past the chunk's end (so G stays that of the last token).
    w(f"{ind}%tlast = arith.subi %eos, {c(1)} : index")
    w(f"{ind}%db = cake.load %dtb[%h, %tid] : !cake.tensor<[H, {KV}], f32> -> f32")
    w(f"{ind}%gsc = arith.mulf %aexp, %nlog2e : f32")
    w(f"{ind}%gbias = arith.mulf %db, %gsc : f32")
    prev = "%f0"
    kis = []
    for i in range(C):
        w(f"{ind}%in{i} = arith.cmpi ult, {c(i)}, %len : index")
        # Tokens past the chunk's end read its last token (in bounds, no mask and no branch):
        # their scales are zero and their log-decay is selected away.
        w(f"{ind}%bu{i} = arith.addi %t0, {c(i)} : index")
        w(f"{ind}%bt{i} = arith.minui %bu{i}, %tlast : index")
        for t in ("q", "k", "g"):
            w(f"{ind}%{t}x{i} = cake.load %{t}[%bt{i}, %h, %tid] : {QT} -> bf16")
            w(f"{ind}%{t}e{i} = arith.extf %{t}x{i} : bf16 to f32")
        w(f"{ind}%gn{i} = math.fma %ge{i}, %gsc, %gbias : f32")
        w(f"{ind}%gp{i} = math.exp2 %gn{i} fastmath<afn> : f32")
        w(f"{ind}%gd{i} = arith.addf %gp{i}, %f1 : f32")
        w(f"{ind}%gs{i} = arith.divf %f1, %gd{i} fastmath<afn> : f32")
        w(f"{ind}%glx{i} = arith.mulf %gs{i}, %lb2 : f32")
        w(f"{ind}%lg{i} = arith.select %in{i}, %glx{i}, %f0 : f32")
        w(f"{ind}%G{i} = arith.addf {prev}, %lg{i} : f32")
        prev = f"%G{i}"
        w(f"{ind}%eg{i} = math.exp2 %G{i} fastmath<afn> : f32")
        w(f"{ind}%ngi{i} = arith.negf %G{i} : f32")
        w(f"{ind}%egi{i} = math.exp2 %ngi{i} fastmath<afn> : f32")
        w(f"{ind}%qs{i} = cake.load %sqs[{c(i)}] : {sm['sqs']} -> f32")
        w(f"{ind}%ks{i} = cake.load %sks[{c(i)}] : {sm['sks']} -> f32")
        w(f"{ind}%kh{i} = arith.mulf %ke{i}, %ks{i} : f32")
        w(f"{ind}%qh{i} = arith.mulf %qe{i}, %qs{i} : f32")
        for t, src, f in (("kd", "kh", "eg"), ("qd", "qh", "eg"), ("ki", "kh", "egi")):
            w(f"{ind}%{t}{i} = arith.mulf %{src}{i}, %{f}{i} : f32")
        for t, buf in (("kd", "kdec"), ("qd", "qdec"), ("ki", "kinv")):
            w(f"{ind}%{t}b{i} = arith.truncf %{t}{i} : f32 to bf16")
            w(f"{ind}cake.store %{t}b{i}, %{buf}[{c(i)}, %tid] : bf16, {sm[buf]}")
        kis.append(f"%ki{i}")
    w(f"{ind}%dlast = math.exp2 {prev} fastmath<afn> : f32")
    w(f"{ind}cake.store %dlast, %ws_dl[%slot, %h, %tid] : f32, {ws_type('ws_dl')}")
    if frag:
        # krest^T of channel ch = 16s + r: lane g = 2 (r / 4) + r % 2, tile b = (r % 4) / 2.
        w(f"{ind}%krs = arith.divui %tid, {c(16)} : index")
        w(f"{ind}%krr = arith.remui %tid, {c(16)} : index")
        w(f"{ind}%krr4 = arith.divui %krr, {c(4)} : index")
        w(f"{ind}%krr2 = arith.remui %krr, {c(2)} : index")
        w(f"{ind}%krg2 = arith.muli %krr4, {c(2)} : index")
        w(f"{ind}%krg = arith.addi %krg2, %krr2 : index")
        w(f"{ind}%krm = arith.remui %krr, {c(4)} : index")
        w(f"{ind}%krb = arith.divui %krm, {c(2)} : index")
        w(f"{ind}%krsg = arith.muli %krs, {c(8)} : index")
        w(f"{ind}%krsg1 = arith.addi %krsg, %krg : index")
        w(f"{ind}%krl = arith.muli %krsg1, {c(32)} : index")
        w(f"{ind}%krb4 = arith.muli %krb, {c(4)} : index")
        w(f"{ind}%kro = arith.addi %krl, %krb4 : index")
        for q in range(4):
            toks = PERM[4 * q: 4 * q + 4]
            for i in toks:
                w(f"{ind}%krs{i} = arith.mulf {kis[i]}, %dlast : f32")
            w(f"{ind}%krv{q} = vector.from_elements {', '.join(f'%krs{i}' for i in toks)} : {V4}")
            w(f"{ind}%krh{q} = arith.truncf %krv{q} : {V4} to {B4}")
            w(f"{ind}%kro{q} = arith.addi %kro, {c(8 * q)} : index")
            w(f"{ind}cake.store %krh{q}, %ws_kr[%slot, %h, %kro{q}] : {B4}, {ws_type('ws_kr')}")
    else:                        # krest^T [ch][tok]
        w(f"{ind}%kro = arith.muli %tid, {c(C)} : index")
        for half in range(2):
            for i in range(8 * half, 8 * half + 8):
                w(f"{ind}%krs{i} = arith.mulf {kis[i]}, %dlast : f32")
            w(f"{ind}%krv{half} = vector.from_elements {', '.join(f'%krs{i}' for i in range(8 * half, 8 * half + 8))} : vector<8xf32>")
            w(f"{ind}%krh{half} = arith.truncf %krv{half} : vector<8xf32> to {B8}")
            w(f"{ind}%kroh{half} = arith.addi %kro, {c(8 * half)} : index")
            w(f"{ind}cake.store %krh{half}, %ws_kr[%slot, %h, %kroh{half}] : {B8}, {ws_type('ws_kr')}")
    w(f"{ind}cake.barrier")
    # ---- C: -L (warp 0, to shared) and Mq (warp 1, to the workspace) on mma.sync ----
    w(f"{ind}%rg = arith.divui %lane, {c(4)} : index")
    w(f"{ind}%qq = arith.remui %lane, {c(4)} : index")
    w(f"{ind}%q4 = arith.muli %qq, {c(4)} : index")
    w(f"{ind}%q2 = arith.muli %qq, {c(2)} : index")
    w(f"{ind}%rg8 = arith.addi %rg, {c(8)} : index")
    w(f"{ind}%w0 = arith.cmpi eq, %wp, {c(0)} : index")
    w(f"{ind}%w1 = arith.cmpi eq, %wp, {c(1)} : index")
    # kdec and qdec to the workspace, a 16-byte piece per thread and round.
    for rr in range(C * KV // 8 // PREP_BLOCK):
        w(f"{ind}%fp{rr} = arith.addi %tid, {c(PREP_BLOCK * rr)} : index")
        if frag:     # piece (s, g, q): rows g, g + 8 at channels 16s + 4q .. + 3 (qdec: A order)
            w(f"{ind}%fs{rr} = arith.divui %fp{rr}, {c(32)} : index")
            w(f"{ind}%fl{rr} = arith.remui %fp{rr}, {c(32)} : index")
            w(f"{ind}%fg{rr} = arith.divui %fl{rr}, {c(4)} : index")
            w(f"{ind}%fg8{rr} = arith.addi %fg{rr}, {c(8)} : index")
            w(f"{ind}%fq{rr} = arith.remui %fl{rr}, {c(4)} : index")
            w(f"{ind}%fs16{rr} = arith.muli %fs{rr}, {c(16)} : index")
            w(f"{ind}%fq4{rr} = arith.muli %fq{rr}, {c(4)} : index")
            w(f"{ind}%fc{rr} = arith.addi %fs16{rr}, %fq4{rr} : index")
            w(f"{ind}%fo{rr} = arith.muli %fp{rr}, {c(8)} : index")
            for t, buf, order in (("k", "kdec", "0, 1, 2, 3, 4, 5, 6, 7"), ("q", "qdec", "0, 1, 4, 5, 2, 3, 6, 7")):
                w(f"{ind}%f{t}l{rr} = cake.load %{buf}[%fg{rr}, %fc{rr}] : {sm[buf]} -> {B4}")
                w(f"{ind}%f{t}h{rr} = cake.load %{buf}[%fg8{rr}, %fc{rr}] : {sm[buf]} -> {B4}")
                w(f"{ind}%f{t}v{rr} = vector.shuffle %f{t}l{rr}, %f{t}h{rr} [{order}] : {B4}, {B4}")
                w(f"{ind}cake.store %f{t}v{rr}, %ws_{t}d[%slot, %h, %fo{rr}] : {B8}, {ws_type(f'ws_{t}d')}")
        else:        # row-major: 8 channels of a token
            w(f"{ind}%ft{rr} = arith.divui %fp{rr}, {c(KV // 8)} : index")
            w(f"{ind}%fpc{rr} = arith.remui %fp{rr}, {c(KV // 8)} : index")
            w(f"{ind}%fc{rr} = arith.muli %fpc{rr}, {c(8)} : index")
            w(f"{ind}%fo{rr} = arith.muli %fp{rr}, {c(8)} : index")
            for t, buf in (("k", "kdec"), ("q", "qdec")):
                w(f"{ind}%f{t}v{rr} = cake.load %{buf}[%ft{rr}, %fc{rr}] : {sm[buf]} -> {B8}")
                w(f"{ind}cake.store %f{t}v{rr}, %ws_{t}d[%slot, %h, %fo{rr}] : {B8}, {ws_type(f'ws_{t}d')}")
    for kind, src, cond in (("l", "kdec", "%w0"), ("m", "qdec", "%w1")):
        i2 = ind + "  "
        w(f"{ind}scf.if {cond} {{")
        acc = {nt: "%z4" for nt in range(2)}
        for s in range(KV // 16):
            col = f"%{kind}c{s}"
            w(f"{i2}{col} = arith.addi %q4, {c(16 * s)} : index")
            a = afrag(w, src, sm[src], "%rg", "%rg8", col, f"{kind}a{s}", i2)
            for nt in range(2):
                w(f"{i2}%{kind}t{s}_{nt} = arith.addi %rg, {c(8 * nt)} : index")
                w(f"{i2}%{kind}b{s}_{nt} = cake.load %kinv[%{kind}t{s}_{nt}, {col}] : {sm['kinv']} -> {B4}")
                w(f"{i2}%{kind}{s}_{nt} = cake.mma_sync {a}, %{kind}b{s}_{nt}, {acc[nt]} : {B8}, {B4}, {V4}")
                acc[nt] = f"%{kind}{s}_{nt}"
        if kind == "l":
            for r in range(2):
                w(f"{i2}%lbt{r} = cake.load %sb[{'%rg8' if r else '%rg'}] : {sm['sb']} -> f32")
                w(f"{i2}%nlbt{r} = arith.negf %lbt{r} : f32")
        # L: strictly lower, times -beta of the row, to shared; Mq: lower with the diagonal, the
        # lane's 8 values in A-fragment order (nt, r, x) to the workspace.
        els = []
        for nt in range(2):
            for r in range(2):
                row = "%rg8" if r else "%rg"
                for x in range(2):
                    t = f"{kind}{nt}_{r}_{x}"
                    w(f"{i2}%j{t} = arith.addi %q2, {c(8 * nt + x)} : index")
                    w(f"{i2}%e{t} = vector.extract {acc[nt]}[{2 * r + x}] : f32 from {V4}")
                    w(f"{i2}%k{t} = arith.cmpi {'ult' if kind == 'l' else 'ule'}, %j{t}, {row} : index")
                    val = f"%e{t}"
                    if kind == "l":
                        w(f"{i2}%p{t} = arith.mulf %e{t}, %nlbt{r} : f32")
                        val = f"%p{t}"
                    w(f"{i2}%s{t} = arith.select %k{t}, {val}, %f0 : f32")
                    if kind == "l":
                        w(f"{i2}cake.store %s{t}, %lm[{row}, %j{t}] : f32, {sm['lm']}")
                    els.append(f"%s{t}")
        if kind == "m":
            if frag:
                w(f"{i2}%mv = vector.from_elements {', '.join(els)} : vector<8xf32>")
                w(f"{i2}%mb = arith.truncf %mv : vector<8xf32> to {B8}")
                w(f"{i2}%mo = arith.muli %lane, {c(8)} : index")
                w(f"{i2}cake.store %mb, %ws_mq[%slot, %h, %mo] : {B8}, {ws_type('ws_mq')}")
            else:                    # Mq[row][8nt + 2q .. + 1]
                for nt in range(2):
                    for r in range(2):
                        row = "%rg8" if r else "%rg"
                        pair = ", ".join(els[4 * nt + 2 * r: 4 * nt + 2 * r + 2])
                        w(f"{i2}%mqv{nt}_{r} = vector.from_elements {pair} : {V2}")
                        w(f"{i2}%mqb{nt}_{r} = arith.truncf %mqv{nt}_{r} : {V2} to {BB2}")
                        w(f"{i2}%mqr{nt}_{r} = arith.muli {row}, {c(C)} : index")
                        w(f"{i2}%mqo{nt}_{r} = arith.addi %mqr{nt}_{r}, %jm{nt}_{r}_0 : index")
                        w(f"{i2}cake.store %mqb{nt}_{r}, %ws_mq[%slot, %h, %mqo{nt}_{r}] : {BB2}, {ws_type('ws_mq')}")
        w(f"{ind}}}")
    w(f"{ind}cake.barrier")
    # ---- D: INVb = (I + L)^-1 diag(b), a column per lane of warp 0 (lanes 16..31 repeat) ----
    i2, i3 = ind + "  ", ind + "    "
    w(f"{ind}scf.if %w0 {{")
    w(f"{i2}%col = arith.remui %lane, {c(16)} : index")
    w(f"{i2}%lo16 = arith.cmpi ult, %lane, {c(16)} : index")
    xs = []
    for i in range(C):
        w(f"{i2}%isd{i} = arith.cmpi eq, %col, {c(i)} : index")
        w(f"{i2}%x0_{i} = arith.select %isd{i}, %f1, %f0 : f32")
        xs.append(f"%x0_{i}")
    for jj in range(C - 1):
        for i in range(jj + 1, C):
            w(f"{i2}%nL{i}_{jj} = cake.load %lm[{c(i)}, {c(jj)}] : {sm['lm']} -> f32")
            w(f"{i2}%x{jj + 1}_{i} = math.fma %nL{i}_{jj}, {xs[jj]}, {xs[i]} : f32")
            xs[i] = f"%x{jj + 1}_{i}"
    w(f"{i2}%bcol = cake.load %sb[%col] : {sm['sb']} -> f32")
    if frag:   # INVb[i][col] at 8 (4 (i % 8) + (col % 8) / 2) + 4 (i / 8) + 2 (col / 8) + col % 2
        w(f"{i2}%ic8 = arith.remui %col, {c(8)} : index")
        w(f"{i2}%icq = arith.divui %ic8, {c(2)} : index")
        w(f"{i2}%icq8 = arith.muli %icq, {c(8)} : index")
        w(f"{i2}%ichi = arith.divui %col, {c(8)} : index")
        w(f"{i2}%ichi2 = arith.muli %ichi, {c(2)} : index")
        w(f"{i2}%icx = arith.remui %col, {c(2)} : index")
        w(f"{i2}%icb = arith.addi %icq8, %ichi2 : index")
        w(f"{i2}%icb1 = arith.addi %icb, %icx : index")
    w(f"{i2}scf.if %lo16 {{")
    for i in range(C):        # rows past the chunk's tokens are zero: U's rows there vanish
        w(f"{i3}%xs{i} = arith.mulf {xs[i]}, %bcol : f32")
        w(f"{i3}%xm{i} = arith.select %in{i}, %xs{i}, %f0 : f32")
        w(f"{i3}%xb{i} = arith.truncf %xm{i} : f32 to bf16")
        if frag:
            w(f"{i3}%io{i} = arith.addi %icb1, {c(32 * (i % 8) + 4 * (i // 8))} : index")
        else:
            w(f"{i3}%io{i} = arith.addi %col, {c(C * i)} : index")
        w(f"{i3}cake.store %xb{i}, %ws_inv[%slot, %h, %io{i}] : bf16, {ws_type('ws_inv')}")
    w(f"{i2}}}")
    w(f"{ind}}}")
    w("  }")
    w("  cake.return")
    w("}")
    return e.text(head)


def token_scales(w, c, ind, sm):
    """Phase A of pass 1 (block threads / 8 tokens from %t0, of which %len are the chunk's): 8
    threads per token write its scales scale / |q| and 1 / |k| to %sqs / %sks and sigmoid(beta)
    to %sb. A token past the chunk's end (the next sequence's, or past T) gets zero scales here,
    once: its q^ and k^ and every product after then vanish without a select per use."""
    w(f"{ind}%ptok = arith.divui %tid, {c(8)} : index")
    w(f"{ind}%pq = arith.remui %tid, {c(8)} : index")
    w(f"{ind}%pch = arith.muli %pq, {c(4)} : index")
    w(f"{ind}%plead = arith.cmpi eq, %pq, {c(0)} : index")
    w(f"{ind}%tok = arith.addi %t0, %ptok : index")
    for i in range(4):
        w(f"{ind}%pc{i} = arith.addi %pch, {c(32 * i)} : index")
        for t in ("q", "k"):
            w(f"{ind}%{t}r{i} = cake.load %{t}[%tok, %h, %pc{i}] masked : {QT} -> {B4}")
            w(f"{ind}%{t}f{i} = arith.extf %{t}r{i} : {B4} to {V4}")
    w(f"{ind}%braw = cake.load %beta[%tok, %h] masked : !cake.tensor<[T, H], bf16> -> bf16")
    l2_norm_scales(w, 4, 8)
    store_beta_sigmoid(w, "%braw", "%sb", sm["sb"])
    w(f"{ind}  %pin = arith.cmpi ult, %ptok, %len : index")
    w(f"{ind}  %qscl = arith.select %pin, %qrs, %f0 : f32")
    w(f"{ind}  %kscl = arith.select %pin, %krn, %f0 : f32")
    w(f"{ind}  cake.store %qscl, %sqs[%ptok] : f32, {sm['sqs']}")
    w(f"{ind}  cake.store %kscl, %sks[%ptok] : f32, {sm['sks']}")
    w(f"{ind}}}")
