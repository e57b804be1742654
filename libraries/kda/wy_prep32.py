"""Pass 1 of the `wy` family for chunks of 32 tokens (the wgmma pass's `_c32` variants; wy.py
has the design): each 32-token chunk is composed from its two 16-token halves a and b, so no
factor 2^-G spans more than 16 tokens (e^-G stays bounded as in the 16-token form).

With each half's own quantities (cumulative decay from the half's start: kdec, qdec, kinv,
krest = kinv 2^G_last, dl = 2^G_last, L, Mq, INVb = (I + L)^-1 diag(b)) and
P = kdec_b krest_a^T, the chunk's operands are

    kdec = [kdec_a; kdec_b dl_a],  qdec = [qdec_a; qdec_b dl_a],  krest = [krest_a dl_b; krest_b],
    dl = dl_a dl_b,  Mq = [[Mq_a, 0], [qdec_b krest_a^T, Mq_b]],
    INV = [[INVb_a, 0], [-INVb_b P INVb_a, INVb_b]]

(two 16-token steps of the recurrence, written as one: exact in real arithmetic). Row-major
("nat") workspace only: kdec/qdec [tok][ch], krest^T [ch][tok], Mq/INV [tok][tok'].
"""

from kda_common import KV, QT
from wy_common import (B4, B8, BB2, V2, V4, WORKSPACE, Emitter, afrag, header, prep_name, sequence_bounds,
                       slot_sequence, ws_type)
from wy_prep import token_scales

CH = 32                       # tokens per chunk
HALF = 16
THREADS = 256                 # phase B: a thread per (half, channel)
# 4 blocks of 256 threads per SM (64 registers, ~47 KB of shared memory each).
PREP32_MIN_BLOCKS = 4


def generate_prep32():
    e = Emitter()
    w, c = e, e.c

    def ws(n):
        return ws_type(n, CH)
    params = [("q", QT, "q"), ("k", QT, "k"), ("g", QT, "g"),
              ("beta", "!cake.tensor<[T, H], bf16>", "beta"), ("alog", "!cake.tensor<[H], f32>", "A_log"),
              ("dtb", f"!cake.tensor<[H, {KV}], f32>", "dt_bias"), ("cu", "!cake.tensor<[S], i64>", "cu_seqlens")]
    params += [(n, ws(n), n) for n in WORKSPACE]
    params += [("scale", "f32", "scale"), ("lb", "f32", "lower_bound"), ("slo", "i64", "slot_lo")]
    header(w, {"chunk": CH, "layout": "nat"}, prep_name("nat", CH), params, THREADS, "p, h, 1",
           PREP32_MIN_BLOCKS)
    head = len(e.lines)
    row = f"{CH}x{KV}xbf16, pad = 16"
    sm = {"sqs": f"!cake.smem<{CH}xf32>", "sks": f"!cake.smem<{CH}xf32>", "sb": f"!cake.smem<{CH}xf32>",
          "sdl": f"!cake.smem<2x{KV}xf32>",
          "kdec": f"!cake.smem<{row}>", "qdec": f"!cake.smem<{row}>", "kinv": f"!cake.smem<{row}>",
          "krest": f"!cake.smem<{row}>",
          "lm": f"!cake.smem<2x{HALF}x{HALF}xf32>", "sinvf": f"!cake.smem<2x{HALF}x{HALF}xf32>",
          "sp": f"!cake.smem<{HALF}x{HALF}xf32>", "sx": f"!cake.smem<{HALF}x{HALF}xf32>"}
    for line in ("%tid = cake.thread_id x", "%lane = cake.lane_id", "%wp = cake.warp_id",
                 "%slb = cake.block_id x", "%h = cake.block_id y"):
        w("  " + line)
    w("  %slo_i = arith.index_cast %slo : i64 to index")
    w("  %sl = arith.addi %slb, %slo_i : index")
    slot_sequence(w, c, CH)
    sequence_bounds(w, c, CH)
    w("  %j = arith.subi %sl, %slot0 : index")
    w(f"  %j32 = arith.muli %j, {c(CH)} : index")
    w("  %t0 = arith.addi %bos, %j32 : index")
    w("  %slot = arith.addi %sl, %c0 : index")
    w("  %live = arith.cmpi ult, %t0, %eos : index")
    w("  scf.if %live {")
    ind = "    "
    for line in ("%f0 = arith.constant 0.0 : f32", "%f1 = arith.constant 1.0 : f32",
                 "%eps = arith.constant 1.0e-06 : f32",
                 f"%z4 = arith.constant dense<0.0> : {V4}", f"%zb8 = arith.constant dense<0.0> : {B8}",
                 "%log2e = arith.constant 1.44269504 : f32"):
        w(ind + line)
    w(f"{ind}%alogh = cake.load %alog[%h] : !cake.tensor<[H], f32> -> f32")
    w(f"{ind}%aexp = math.exp %alogh : f32")
    w(f"{ind}%nlog2e = arith.negf %log2e : f32")
    w(f"{ind}%lb2 = arith.mulf %lb, %log2e : f32")
    for buf, t in sm.items():
        w(f"{ind}%{buf} = cake.alloc_smem : {t}")
    w(f"{ind}%left = arith.subi %eos, %t0 : index")
    w(f"{ind}%len = arith.minui %left, {c(CH)} : index")
    # ---- A: 8 threads per token: scale / |q|, 1 / |k|, sigmoid(beta) (zero past the end) ----
    token_scales(w, c, ind, sm)
    w(f"{ind}cake.barrier")
    # ---- B1: a thread per (half, channel): the half's cumulative log2-decay G, 2^G_last ----
    w(f"{ind}%hf = arith.divui %tid, {c(KV)} : index")
    w(f"{ind}%ch = arith.remui %tid, {c(KV)} : index")
    w(f"{ind}%hb = arith.muli %hf, {c(HALF)} : index")
    w(f"{ind}%tlast = arith.subi %eos, {c(1)} : index")
    w(f"{ind}%db = cake.load %dtb[%h, %ch] : !cake.tensor<[H, {KV}], f32> -> f32")
    w(f"{ind}%gsc = arith.mulf %aexp, %nlog2e : f32")
    w(f"{ind}%gbias = arith.mulf %db, %gsc : f32")

    def token(i, tag):
        """%ti{i}: the half's token i in the chunk; %{tag}{i}: its index in the tensors, clamped
        to the sequence's last token (tokens past the end read it, their scales are zero)."""
        w(f"{ind}%{tag}u{i} = arith.addi %t0, %ti{i} : index")
        w(f"{ind}%{tag}{i} = arith.minui %{tag}u{i}, %tlast : index")
    prev = "%f0"
    for i in range(HALF):
        w(f"{ind}%ti{i} = arith.addi %hb, {c(i)} : index")
        w(f"{ind}%in{i} = arith.cmpi ult, %ti{i}, %len : index")
        token(i, "gt")
        w(f"{ind}%gx{i} = cake.load %g[%gt{i}, %h, %ch] : {QT} -> bf16")
        w(f"{ind}%ge{i} = arith.extf %gx{i} : bf16 to f32")
        w(f"{ind}%gn{i} = math.fma %ge{i}, %gsc, %gbias : f32")
        w(f"{ind}%gp{i} = math.exp2 %gn{i} fastmath<afn> : f32")
        w(f"{ind}%gd{i} = arith.addf %gp{i}, %f1 : f32")
        w(f"{ind}%gs{i} = arith.divf %f1, %gd{i} fastmath<afn> : f32")
        w(f"{ind}%glx{i} = arith.mulf %gs{i}, %lb2 : f32")
        w(f"{ind}%lg{i} = arith.select %in{i}, %glx{i}, %f0 : f32")
        w(f"{ind}%G{i} = arith.addf {prev}, %lg{i} : f32")
        prev = f"%G{i}"
    w(f"{ind}%dlo = math.exp2 {prev} fastmath<afn> : f32")
    w(f"{ind}cake.store %dlo, %sdl[%hf, %ch] : f32, {sm['sdl']}")
    w(f"{ind}cake.barrier")
    # ---- B2: the gated operands: the half's own (shared memory, for the products below) and
    # the chunk's (workspace): half b's kdec/qdec times dl_a, half a's krest times dl_b ----
    w(f"{ind}%ohf = arith.subi {c(1)}, %hf : index")
    w(f"{ind}%dlx = cake.load %sdl[%ohf, %ch] : {sm['sdl']} -> f32")
    w(f"{ind}%isb = arith.cmpi eq, %hf, {c(1)} : index")
    w(f"{ind}%wsc = arith.select %isb, %dlx, %f1 : f32")
    w(f"{ind}%krx = arith.select %isb, %f1, %dlx : f32")
    w(f"{ind}%krm = arith.mulf %dlo, %krx : f32")
    kws = []
    for i in range(HALF):
        token(i, "bt")
        for t in ("q", "k"):
            w(f"{ind}%{t}x{i} = cake.load %{t}[%bt{i}, %h, %ch] : {QT} -> bf16")
            w(f"{ind}%{t}e{i} = arith.extf %{t}x{i} : bf16 to f32")
        w(f"{ind}%eg{i} = math.exp2 %G{i} fastmath<afn> : f32")
        w(f"{ind}%ngi{i} = arith.negf %G{i} : f32")
        w(f"{ind}%egi{i} = math.exp2 %ngi{i} fastmath<afn> : f32")
        w(f"{ind}%qs{i} = cake.load %sqs[%ti{i}] : {sm['sqs']} -> f32")
        w(f"{ind}%ks{i} = cake.load %sks[%ti{i}] : {sm['sks']} -> f32")
        w(f"{ind}%kh{i} = arith.mulf %ke{i}, %ks{i} : f32")
        w(f"{ind}%qh{i} = arith.mulf %qe{i}, %qs{i} : f32")
        for t, src, f in (("kd", "kh", "eg"), ("qd", "qh", "eg"), ("ki", "kh", "egi")):
            w(f"{ind}%{t}{i} = arith.mulf %{src}{i}, %{f}{i} : f32")
        w(f"{ind}%kt{i} = arith.mulf %ki{i}, %dlo : f32")
        for t, buf in (("kd", "kdec"), ("qd", "qdec"), ("ki", "kinv"), ("kt", "krest")):
            w(f"{ind}%{t}b{i} = arith.truncf %{t}{i} : f32 to bf16")
            w(f"{ind}cake.store %{t}b{i}, %{buf}[%ti{i}, %ch] : bf16, {sm[buf]}")
        w(f"{ind}%wo{i} = arith.muli %ti{i}, {c(KV)} : index")
        w(f"{ind}%wc{i} = arith.addi %wo{i}, %ch : index")
        for t, a in (("kd", "ws_kd"), ("qd", "ws_qd")):
            w(f"{ind}%{t}w{i} = arith.mulf %{t}{i}, %wsc : f32")
            w(f"{ind}%{t}wb{i} = arith.truncf %{t}w{i} : f32 to bf16")
            w(f"{ind}cake.store %{t}wb{i}, %{a}[%slot, %h, %wc{i}] : bf16, {ws(a)}")
        w(f"{ind}%krw{i} = arith.mulf %ki{i}, %krm : f32")
        kws.append(f"%krw{i}")
    # krest^T [ch][tok]: the thread's 16 tokens are contiguous.
    w(f"{ind}%kro0 = arith.muli %ch, {c(CH)} : index")
    w(f"{ind}%kro = arith.addi %kro0, %hb : index")
    for part in range(2):
        w(f"{ind}%krv{part} = vector.from_elements {', '.join(kws[8 * part: 8 * part + 8])} : vector<8xf32>")
        w(f"{ind}%krh{part} = arith.truncf %krv{part} : vector<8xf32> to {B8}")
        w(f"{ind}%kroh{part} = arith.addi %kro, {c(8 * part)} : index")
        w(f"{ind}cake.store %krh{part}, %ws_kr[%slot, %h, %kroh{part}] : {B8}, {ws('ws_kr')}")
    w(f"{ind}%isa = arith.cmpi eq, %hf, {c(0)} : index")
    w(f"{ind}scf.if %isa {{")
    w(f"{ind}  %dlc = arith.mulf %dlo, %dlx : f32")
    w(f"{ind}  cake.store %dlc, %ws_dl[%slot, %h, %ch] : f32, {ws('ws_dl')}")
    w(f"{ind}}}")
    w(f"{ind}cake.barrier")
    # ---- C: the 16 x 16 products on mma.sync, a warp each; warps 6 and 7 zero the upper
    # right blocks of Mq and INV ----
    w(f"{ind}%rg = arith.divui %lane, {c(4)} : index")
    w(f"{ind}%qq = arith.remui %lane, {c(4)} : index")
    w(f"{ind}%q4 = arith.muli %qq, {c(4)} : index")
    w(f"{ind}%q2 = arith.muli %qq, {c(2)} : index")
    # (name, A buffer, A's first row, B buffer, B's first row, warp, epilogue)
    products = (("la", "kdec", 0, "kinv", 0, 0, "l"), ("ma", "qdec", 0, "kinv", 0, 1, "m"),
                ("lb", "kdec", HALF, "kinv", HALF, 2, "l"), ("mb", "qdec", HALF, "kinv", HALF, 3, "m"),
                ("pk", "kdec", HALF, "krest", 0, 4, "p"), ("qx", "qdec", HALF, "krest", 0, 5, "x"))
    i2 = ind + "  "
    for kind, abuf, abase, bbuf, bbase, warp, epi in products:
        w(f"{ind}%wk{kind} = arith.cmpi eq, %wp, {c(warp)} : index")
        w(f"{ind}scf.if %wk{kind} {{")
        w(f"{i2}%{kind}r0 = arith.addi %rg, {c(abase)} : index")
        w(f"{i2}%{kind}r1 = arith.addi %rg, {c(abase + 8)} : index")
        acc = {nt: "%z4" for nt in range(2)}
        for s in range(KV // 16):
            col = f"%{kind}c{s}"
            w(f"{i2}{col} = arith.addi %q4, {c(16 * s)} : index")
            a = afrag(w, abuf, sm[abuf], f"%{kind}r0", f"%{kind}r1", col, f"{kind}a{s}", i2)
            for nt in range(2):
                w(f"{i2}%{kind}t{s}_{nt} = arith.addi %rg, {c(bbase + 8 * nt)} : index")
                w(f"{i2}%{kind}b{s}_{nt} = cake.load %{bbuf}[%{kind}t{s}_{nt}, {col}] : {sm[bbuf]} -> "
                  f"{B4}")
                w(f"{i2}%{kind}{s}_{nt} = cake.mma_sync {a}, %{kind}b{s}_{nt}, {acc[nt]} : {B8}, "
                  f"{B4}, {V4}")
                acc[nt] = f"%{kind}{s}_{nt}"
        # Accumulator element 2r + x of tile nt: row g + 8r (of the half), column 8nt + 2q + x.
        hsel = c(0 if abase == 0 else 1)
        if epi == "l":
            for r in range(2):
                w(f"{i2}%{kind}bt{r} = cake.load %sb[%{kind}r{r}] : {sm['sb']} -> f32")
                w(f"{i2}%{kind}nb{r} = arith.negf %{kind}bt{r} : f32")
        for nt in range(2):
            for r in range(2):
                hrow = "%rg" if r == 0 else f"%{kind}h8"
                if r == 1 and nt == 0:
                    w(f"{i2}%{kind}h8 = arith.addi %rg, {c(8)} : index")
                pair = []
                for x in range(2):
                    t = f"{kind}{nt}_{r}_{x}"
                    w(f"{i2}%j{t} = arith.addi %q2, {c(8 * nt + x)} : index")
                    w(f"{i2}%e{t} = vector.extract {acc[nt]}[{2 * r + x}] : f32 from {V4}")
                    val = f"%e{t}"
                    if epi in ("l", "m"):       # L strictly lower (times -beta), Mq lower
                        w(f"{i2}%k{t} = arith.cmpi {'ult' if epi == 'l' else 'ule'}, %j{t}, {hrow} : index")
                        if epi == "l":
                            w(f"{i2}%p{t} = arith.mulf %e{t}, %{kind}nb{r} : f32")
                            val = f"%p{t}"
                        w(f"{i2}%s{t} = arith.select %k{t}, {val}, %f0 : f32")
                        val = f"%s{t}"
                    if epi == "l":
                        w(f"{i2}cake.store {val}, %lm[{hsel}, {hrow}, %j{t}] : f32, {sm['lm']}")
                    elif epi == "p":
                        w(f"{i2}cake.store {val}, %sp[{hrow}, %j{t}] : f32, {sm['sp']}")
                    pair.append(val)
                if epi in ("m", "x"):    # Mq rows abase + row, columns (x: block a) + j
                    cbase = abase if epi == "m" else 0
                    tag = f"{kind}{nt}_{r}"
                    w(f"{i2}%mv{tag} = vector.from_elements {', '.join(pair)} : {V2}")
                    w(f"{i2}%mb{tag} = arith.truncf %mv{tag} : {V2} to {BB2}")
                    w(f"{i2}%mr{tag} = arith.addi {hrow}, {c(abase)} : index")
                    w(f"{i2}%mrr{tag} = arith.muli %mr{tag}, {c(CH)} : index")
                    w(f"{i2}%mo{tag} = arith.addi %mrr{tag}, %j{kind}{nt}_{r}_0 : index")
                    if cbase:
                        w(f"{i2}%moc{tag} = arith.addi %mo{tag}, {c(cbase)} : index")
                    mo = f"%moc{tag}" if cbase else f"%mo{tag}"
                    w(f"{i2}cake.store %mb{tag}, %ws_mq[%slot, %h, {mo}] : {BB2}, {ws('ws_mq')}")
        w(f"{ind}}}")
    # Upper right blocks (rows 0..15, columns 16..31) of Mq and INV: zero, 8 per lane.
    w(f"{ind}%zr = arith.divui %lane, {c(2)} : index")
    w(f"{ind}%zc = arith.remui %lane, {c(2)} : index")
    w(f"{ind}%zc8 = arith.muli %zc, {c(8)} : index")
    w(f"{ind}%zrr = arith.muli %zr, {c(CH)} : index")
    w(f"{ind}%zo0 = arith.addi %zrr, %zc8 : index")
    w(f"{ind}%zo = arith.addi %zo0, {c(HALF)} : index")
    for warp, a in ((6, "ws_mq"), (7, "ws_inv")):
        w(f"{ind}%wz{warp} = arith.cmpi eq, %wp, {c(warp)} : index")
        w(f"{ind}scf.if %wz{warp} {{")
        w(f"{i2}cake.store %zb8, %{a}[%slot, %h, %zo] : {B8}, {ws(a)}")
        w(f"{ind}}}")
    w(f"{ind}cake.barrier")
    # ---- D: INVb of each half, (I + L)^-1 diag(b) by forward substitution: a column per lane
    # of warp 0 (lanes 0..15 half a, 16..31 half b) -> the diagonal blocks of INV ----
    i3 = i2 + "  "
    w(f"{ind}%wd = arith.cmpi eq, %wp, {c(0)} : index")
    w(f"{ind}scf.if %wd {{")
    w(f"{i2}%dh = arith.divui %lane, {c(HALF)} : index")
    w(f"{i2}%col = arith.remui %lane, {c(HALF)} : index")
    w(f"{i2}%dhb = arith.muli %dh, {c(HALF)} : index")
    xs = []
    for i in range(HALF):
        w(f"{i2}%isd{i} = arith.cmpi eq, %col, {c(i)} : index")
        w(f"{i2}%x0_{i} = arith.select %isd{i}, %f1, %f0 : f32")
        xs.append(f"%x0_{i}")
    for jj in range(HALF - 1):
        for i in range(jj + 1, HALF):
            w(f"{i2}%nL{i}_{jj} = cake.load %lm[%dh, {c(i)}, {c(jj)}] : {sm['lm']} -> f32")
            w(f"{i2}%x{jj + 1}_{i} = math.fma %nL{i}_{jj}, {xs[jj]}, {xs[i]} : f32")
            xs[i] = f"%x{jj + 1}_{i}"
    w(f"{i2}%btok = arith.addi %dhb, %col : index")
    w(f"{i2}%bcol = cake.load %sb[%btok] : {sm['sb']} -> f32")
    w(f"{i2}%dcol = arith.addi %dhb, %col : index")
    for i in range(HALF):        # rows past the chunk's tokens are zero: U's rows there vanish
        w(f"{i2}%drow{i} = arith.addi %dhb, {c(i)} : index")
        w(f"{i2}%din{i} = arith.cmpi ult, %drow{i}, %len : index")
        w(f"{i2}%xs{i} = arith.mulf {xs[i]}, %bcol : f32")
        w(f"{i2}%xm{i} = arith.select %din{i}, %xs{i}, %f0 : f32")
        w(f"{i2}cake.store %xm{i}, %sinvf[%dh, {c(i)}, %col] : f32, {sm['sinvf']}")
        w(f"{i2}%xb{i} = arith.truncf %xm{i} : f32 to bf16")
        w(f"{i2}%dro{i} = arith.muli %drow{i}, {c(CH)} : index")
        w(f"{i2}%io{i} = arith.addi %dro{i}, %dcol : index")
        w(f"{i2}cake.store %xb{i}, %ws_inv[%slot, %h, %io{i}] : bf16, {ws('ws_inv')}")
    w(f"{ind}}}")
    w(f"{ind}cake.barrier")
    # ---- E: the lower left block -INVb_b P INVb_a, an element per thread ----
    w(f"{ind}%ei = arith.divui %tid, {c(HALF)} : index")
    w(f"{ind}%ej = arith.remui %tid, {c(HALF)} : index")
    prev = "%f0"
    for k in range(HALF):
        w(f"{ind}%ep{k} = cake.load %sp[%ei, {c(k)}] : {sm['sp']} -> f32")
        w(f"{ind}%ea{k} = cake.load %sinvf[{c(0)}, {c(k)}, %ej] : {sm['sinvf']} -> f32")
        w(f"{ind}%ex{k} = math.fma %ep{k}, %ea{k}, {prev} : f32")
        prev = f"%ex{k}"
    w(f"{ind}cake.store {prev}, %sx[%ei, %ej] : f32, {sm['sx']}")
    w(f"{ind}cake.barrier")
    prev = "%f0"
    for k in range(HALF):
        w(f"{ind}%eb{k} = cake.load %sinvf[{c(1)}, %ei, {c(k)}] : {sm['sinvf']} -> f32")
        w(f"{ind}%ey{k} = cake.load %sx[{c(k)}, %ej] : {sm['sx']} -> f32")
        w(f"{ind}%ez{k} = math.fma %eb{k}, %ey{k}, {prev} : f32")
        prev = f"%ez{k}"
    w(f"{ind}%eneg = arith.negf {prev} : f32")
    w(f"{ind}%enb = arith.truncf %eneg : f32 to bf16")
    w(f"{ind}%eir = arith.addi %ei, {c(HALF)} : index")
    w(f"{ind}%eiro = arith.muli %eir, {c(CH)} : index")
    w(f"{ind}%eio = arith.addi %eiro, %ej : index")
    w(f"{ind}cake.store %enb, %ws_inv[%slot, %h, %eio] : bf16, {ws('ws_inv')}")
    w("  }")
    w("  cake.return")
    w("}")
    return e.text(head)
