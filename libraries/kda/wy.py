"""Family `wy`: KDA forward in two passes on tensor cores, chunks of 16 tokens.

The chunked form of the delta rule splits into what depends only on a chunk's inputs and what
depends on the state. For a chunk of n <= 16 tokens (rows past n are zero), with G the
within-chunk cumulative log2-decay per channel, b = sigmoid(beta), and the state S [K, V]:

    kdec = k^ 2^G,  qdec = q^ 2^G,  kinv = k^ 2^-G,  krest = kinv 2^G_last,  dlast = 2^G_last
    L = tril(diag(b) kdec kinv^T, -1),  Mq = tril(qdec kinv^T),  INVb = (I + L)^-1 diag(b)
    U = INVb (v - kdec S),  O = qdec S + Mq U,  S <- diag(dlast) S + krest^T U

Pass 1 (`kda_wy_prep`, one block per (chunk slot, head), all chunks in parallel) computes
everything left of U: the norms, gates and sigmoid, the cumulative decay, L and Mq on mma.sync,
INVb by forward substitution, and writes kdec, qdec, krest^T, Mq, INVb and dlast to workspace
arrays indexed by the chunk's slot: bos / 16 + chunk + sequence, unique and < C = T / 16 + N + 2.
A block finds its sequence by bisection over cu_seqlens (the slots of a sequence start at
bos / 16 + n, increasing in n), so the host needs no sequence length: kda_fwd launches both passes
without reading cu_seqlens back.

Pass 2 (`kda_wy_state_v{VB}`, one block per (VB state columns, head, sequence), VB / 16 warps)
walks the chunks in order. Warp w owns state columns v = 16w .. 16w + 15 of its slice, all 128
channels, as mma.sync accumulators S^T [v x ch] and never shares them: with the channels of an
accumulator tile ordered so that a lane's pairs in tiles 2s and 2s + 1 are the four consecutive
channels 16s + 4q .. 16s + 4q + 3 (lane = 4g + q), the accumulators are, as bf16, directly the A
fragments of S^T and the B fragments of S; every product's result is the next one's operand:

    W^T = S^T kdec^T,  V'^T = v^T - W^T,  U^T = V'^T INVb^T,  O = qdec S + Mq U,
    S^T <- S^T diag(dlast) + U^T krest^T

(50 mma.sync per warp and chunk; no solve, no scan, no shuffle of the state). The operands of
the next two chunks are copied by cp.async into a ring of three stages while one computes: one
block barrier per chunk. krest^T is stored with the tokens of each channel in the order
0 1 8 9 2 3 10 11 ..., the B fragment order of m16n8k16, so a lane reads its fragment at once.

2^-G reaches e^(16 |lower_bound|): the family serves lower_bound >= -5 (MAX_NEG_BOUND), like
FlashKDA's own form; the router sends lower gates to the recurrent family.
"""

from kda_common import KV, QT, ST, l2_norm_scales, store_beta_sigmoid

C = 16                         # tokens per chunk
PREP_BLOCK = 128
# Pass-2 blocks: (VB state columns per block, KS warps per 16 columns, each owning 128 / KS
# channels of their state; KS = 2 halves a warp's work per chunk for an exchange of partial
# products through shared memory: for few (sequence, head) pairs, where one warp per scheduler
# waits on its own chain).
SHAPES = ((32, 1), (64, 1), (16, 2))       # (128, 1) and (32, 2) measured slower (calls 1-5)
MAX_NEG_BOUND = 5.0
STAGES = 3
PERM = [0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15]     # krest^T's token order

V4, V2, B4, B8, BB2 = "vector<4xf32>", "vector<2xf32>", "vector<4xbf16>", "vector<8xbf16>", "vector<2xbf16>"
# Workspace: name -> (shape, element type); pass 1 writes, pass 2 reads; [slot, head, ...].
# The bf16 arrays are in pass 2's fragment order: lane l = 4g + q of a warp reads its operand of
# k-step s as the 8 elements at 256 s + 8 l (one 16-byte load, no bank conflict):
#   ws_kd  (W^T's B, both token tiles u)  kdec[8u + g][16s + 4q + e]         at 8 l + 4u + e
#   ws_qd  (O's A)                         qdec[8r + g][16s + 4q + e]         at 8 l + 4 (e / 2) + 2r + e % 2
#   ws_kr  (S's B, tiles 2s + b)           krest^T[ch][PERM[4q + e]] with ch = 16s + 4 (g / 2) + 2b + g % 2
#                                                                             at 8 l + 4b + e
#   ws_mq  (Mq U's A, one step)            Mq[8r + g][8hi + 2q + x]           at 8 l + 4hi + 2r + x
#   ws_inv (U^T's B, token tiles u)        INVb[8u + g][8hi + 2q + x]         at 8 l + 4u + 2hi + x
WORKSPACE = {
    "ws_kd": (f"C, H, {C * KV}", "bf16"),
    "ws_qd": (f"C, H, {C * KV}", "bf16"),
    "ws_kr": (f"C, H, {C * KV}", "bf16"),
    "ws_mq": (f"C, H, {C * C}", "bf16"),
    "ws_inv": (f"C, H, {C * C}", "bf16"),
    "ws_dl": (f"C, H, {KV}", "f32"),            # 2^G_last [ch]
}


def ws_type(name):
    shape, dt = WORKSPACE[name]
    return f"!cake.tensor<[{shape}], {dt}>"


WG_VBS = (64, 128)             # pass 2 on wgmma: one or two warpgroups of 64 state columns


def variants():
    return [{"vb": vb, "ks": ks} for vb, ks in SHAPES] + [{"vb": vb, "mma": "wgmma"} for vb in WG_VBS]


def _suffix(p):
    if p.get("mma") == "wgmma":
        return "g{vb}".format(**p)
    return "v{vb}".format(**p) + ("_k{ks}".format(**p) if p["ks"] > 1 else "")


def name(p):
    return "kda_wy_" + _suffix(p)


def slices(p):
    """Pass-2 blocks per (sequence, head)."""
    return KV // p["vb"]


def prep_name(layout="frag"):
    return f"kda_wy_prep_c{C}" + ("" if layout == "frag" else "_nat")


def state_name(p):
    return "kda_wy_state_" + _suffix(p)


def stages(p):
    """The variant's kernels in launch order."""
    if p.get("mma") == "wgmma":
        return [(prep_name("nat"), generate_prep("nat")), (state_name(p), generate_state_wg(p))]
    return [(prep_name(), generate_prep()), (state_name(p), generate_state(p))]


class Emitter:
    """Collects lines; `c(n)` names the index constant n (declared once at the kernel's top)."""

    def __init__(self):
        self.lines, self.consts = [], set()

    def __call__(self, line):
        self.lines.append(line)

    def c(self, n):
        self.consts.add(n)
        return f"%c{n}"

    def text(self, head):
        consts = [f"  %c{x} = arith.constant {x} : index" for x in sorted(self.consts)]
        return "\n".join(self.lines[:head] + consts + self.lines[head:]) + "\n"


def header(w, p, entry, params, block, grid):
    w(f"// Generated by libraries/kda/wy.py: {p}")
    w(f"cake.kernel @{entry}(" + ",\n    ".join(f"%{v}: {t} {{cake.name = \"{n}\"}}" for v, t, n in params) + ")")
    w(f"    attributes {{target = \"sm_90a\", block = array<i64: {block}>, "
      "symbols = [\"T\", \"H\", \"N\", \"S\", \"C\"],")
    w(f"                grid = affine_map<()[t, h, n, s, c] -> ({grid})>}} {{")


def sequence_bounds(w, c):
    """%bos, %eos of sequence %n from cu_seqlens, clamped to 0 <= bos <= eos <= T (offsets that
    kda_fwd did not validate stay inside the tensors); %slot0 = bos / 16 + n (add the chunk)."""
    w(f"  %n1 = arith.addi %n, {c(1)} : index")
    w("  %ntok = cake.problem_size \"T\"")
    for b, i in (("bos", "%n"), ("eos", "%n1")):
        w(f"  %{b}64 = cake.load %cu[{i}] : !cake.tensor<[S], i64> -> i64")
        w(f"  %{b}r = arith.index_cast %{b}64 : i64 to index")
    w("  %bos = arith.minui %bosr, %ntok : index")
    w("  %eosc = arith.minui %eosr, %ntok : index")
    w("  %eos = arith.maxui %eosc, %bos : index")
    w(f"  %bos16 = arith.divui %bos, {c(C)} : index")
    w("  %slot0 = arith.addi %bos16, %n : index")


def slot_sequence(w, c):
    """%n of the block's chunk slot %sl: the last sequence whose first slot (bos / 16 + n, strictly
    increasing in n) is <= sl, by bisection over cu_seqlens."""
    w("  %nseq = cake.problem_size \"N\"")
    w(f"  %bis:2 = scf.while (%blo = {c(0)}, %bhi = %nseq) : (index, index) -> (index, index) {{")
    w("    %bgap = arith.subi %bhi, %blo : index")
    w(f"    %bmore = arith.cmpi ugt, %bgap, {c(1)} : index")
    w("    scf.condition(%bmore) %blo, %bhi : index, index")
    w("  } do {")
    w("  ^bb0(%ba: index, %bb: index):")
    w("    %bsum = arith.addi %ba, %bb : index")
    w(f"    %bmid = arith.divui %bsum, {c(2)} : index")
    w("    %bm64 = cake.load %cu[%bmid] : !cake.tensor<[S], i64> -> i64")
    w("    %bmr = arith.index_cast %bm64 : i64 to index")
    w(f"    %bm16 = arith.divui %bmr, {c(C)} : index")
    w("    %bstart = arith.addi %bm16, %bmid : index")
    w("    %ble = arith.cmpi ule, %bstart, %sl : index")
    w("    %bna = arith.select %ble, %bmid, %ba : index")
    w("    %bnb = arith.select %ble, %bb, %bmid : index")
    w("    scf.yield %bna, %bnb : index, index")
    w("  }")
    w("  %n = arith.addi %bis#0, %c0 : index")
    c(0)


def afrag(w, buf, btype, row_lo, row_hi, col, tag, ind):
    """An A fragment (rows row_lo / row_hi, 16 reduction steps from `col`, permuted: lane (g, q)
    holds k = 4q .. 4q + 3) from a bf16 shared buffer."""
    w(f"{ind}%{tag}l = cake.load %{buf}[{row_lo}, {col}] : {btype} -> {B4}")
    w(f"{ind}%{tag}h = cake.load %{buf}[{row_hi}, {col}] : {btype} -> {B4}")
    w(f"{ind}%{tag} = vector.shuffle %{tag}l, %{tag}h [0, 1, 4, 5, 2, 3, 6, 7] : {B4}, {B4}")
    return f"%{tag}"


# ----------------------------------------------------------------------------------------------
# Pass 1: the chunk's operands
# ----------------------------------------------------------------------------------------------

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
    params += [("scale", "f32", "scale"), ("lb", "f32", "lower_bound")]
    header(w, {"chunk": C, "layout": layout}, prep_name(layout), params, PREP_BLOCK, "c, h, 1")
    head = len(e.lines)
    sm = {"sq": f"!cake.smem<{C}x{KV}xf32>", "sk": f"!cake.smem<{C}x{KV}xf32>",
          "sgl": f"!cake.smem<{C}x{KV}xf32>", "sb": f"!cake.smem<{C}xf32>",
          "kdec": f"!cake.smem<{C}x{KV}xbf16, pad = 16>", "qdec": f"!cake.smem<{C}x{KV}xbf16, pad = 16>",
          "kinv": f"!cake.smem<{C}x{KV}xbf16, pad = 16>", "lm": f"!cake.smem<{C}x{C}xf32>"}
    for line in ("%tid = cake.thread_id x", "%lane = cake.lane_id", "%wp = cake.warp_id",
                 "%sl = cake.block_id x", "%h = cake.block_id y"):
        w("  " + line)
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
                 "%eps = arith.constant 1.0e-06 : f32", f"%one4 = arith.constant dense<1.0> : {V4}",
                 f"%z4 = arith.constant dense<0.0> : {V4}", "%log2e = arith.constant 1.44269504 : f32"):
        w(ind + line)
    w(f"{ind}%alogh = cake.load %alog[%h] : !cake.tensor<[H], f32> -> f32")
    w(f"{ind}%aexp = math.exp %alogh : f32")
    w(f"{ind}%aexpv = vector.broadcast %aexp : f32 to {V4}")
    w(f"{ind}%nlog2e = arith.negf %log2e : f32")
    w(f"{ind}%nlog2ev = vector.broadcast %nlog2e : f32 to {V4}")
    w(f"{ind}%lb2 = arith.mulf %lb, %log2e : f32")
    w(f"{ind}%lbv = vector.broadcast %lb2 : f32 to {V4}")
    for buf, t in sm.items():
        w(f"{ind}%{buf} = cake.alloc_smem : {t}")
    w(f"{ind}%left = arith.subi %eos, %t0 : index")
    w(f"{ind}%len = arith.minui %left, {c(C)} : index")
    # ---- A: 8 threads per token: q^ = scale q / |q|, k^, the log2-decays, sigmoid(beta) ----
    w(f"{ind}%ptok = arith.divui %tid, {c(8)} : index")
    w(f"{ind}%pq = arith.remui %tid, {c(8)} : index")
    w(f"{ind}%pch = arith.muli %pq, {c(4)} : index")
    w(f"{ind}%plead = arith.cmpi eq, %pq, {c(0)} : index")
    w(f"{ind}%tok = arith.addi %t0, %ptok : index")
    for i in range(4):
        w(f"{ind}%pc{i} = arith.addi %pch, {c(32 * i)} : index")
        w(f"{ind}%db{i} = cake.load %dtb[%h, %pc{i}] : !cake.tensor<[H, {KV}], f32> -> {V4}")
        for t in ("q", "k", "g"):
            w(f"{ind}%{t}r{i} = cake.load %{t}[%tok, %h, %pc{i}] masked : {QT} -> {B4}")
            w(f"{ind}%{t}f{i} = arith.extf %{t}r{i} : {B4} to {V4}")
    w(f"{ind}%braw = cake.load %beta[%tok, %h] masked : !cake.tensor<[T, H], bf16> -> bf16")
    l2_norm_scales(w, 4, 8)
    for i in range(4):
        w(f"{ind}%qn{i} = arith.mulf %qf{i}, %qrv : {V4}")
        w(f"{ind}%kn{i} = arith.mulf %kf{i}, %krv : {V4}")
        w(f"{ind}cake.store %qn{i}, %sq[%ptok, %pc{i}] : {V4}, {sm['sq']}")
        w(f"{ind}cake.store %kn{i}, %sk[%ptok, %pc{i}] : {V4}, {sm['sk']}")
        w(f"{ind}%gb{i} = arith.addf %gf{i}, %db{i} : {V4}")
        w(f"{ind}%gx{i} = arith.mulf %gb{i}, %aexpv : {V4}")
        w(f"{ind}%gn{i} = arith.mulf %gx{i}, %nlog2ev : {V4}")
        w(f"{ind}%ge{i} = math.exp2 %gn{i} : {V4}")
        w(f"{ind}%gd{i} = arith.addf %ge{i}, %one4 : {V4}")
        w(f"{ind}%gs{i} = arith.divf %one4, %gd{i} fastmath<afn> : {V4}")
        w(f"{ind}%gl{i} = arith.mulf %gs{i}, %lbv : {V4}")
        w(f"{ind}cake.store %gl{i}, %sgl[%ptok, %pc{i}] : {V4}, {sm['sgl']}")
    store_beta_sigmoid(w, "%braw", "%sb", sm["sb"])
    w(f"{ind}}}")
    w(f"{ind}cake.barrier")
    # ---- B: a thread per channel: cumulative decay, gated operands (shared and workspace) ----
    prev = "%f0"
    kis = []
    for i in range(C):
        w(f"{ind}%in{i} = arith.cmpi ult, {c(i)}, %len : index")
        w(f"{ind}%lg{i} = cake.load %sgl[{c(i)}, %tid] : {sm['sgl']} -> f32")
        w(f"{ind}%lgm{i} = arith.select %in{i}, %lg{i}, %f0 : f32")
        w(f"{ind}%G{i} = arith.addf {prev}, %lgm{i} : f32")
        prev = f"%G{i}"
        w(f"{ind}%eg{i} = math.exp2 %G{i} : f32")
        w(f"{ind}%ngi{i} = arith.negf %G{i} : f32")
        w(f"{ind}%egi{i} = math.exp2 %ngi{i} : f32")
        w(f"{ind}%kh{i} = cake.load %sk[{c(i)}, %tid] : {sm['sk']} -> f32")
        w(f"{ind}%qh{i} = cake.load %sq[{c(i)}, %tid] : {sm['sq']} -> f32")
        for t, src, f in (("kd", "kh", "eg"), ("qd", "qh", "eg"), ("ki", "kh", "egi")):
            w(f"{ind}%{t}x{i} = arith.mulf %{src}{i}, %{f}{i} : f32")
            w(f"{ind}%{t}{i} = arith.select %in{i}, %{t}x{i}, %f0 : f32")
        for t, buf in (("kd", "kdec"), ("qd", "qdec"), ("ki", "kinv")):
            w(f"{ind}%{t}b{i} = arith.truncf %{t}{i} : f32 to bf16")
            w(f"{ind}cake.store %{t}b{i}, %{buf}[{c(i)}, %tid] : bf16, {sm[buf]}")
        kis.append(f"%ki{i}")
    w(f"{ind}%dlast = math.exp2 {prev} : f32")
    w(f"{ind}cake.store %dlast, %ws_dl[%slot, %h, %tid] : f32, {ws_type('ws_dl')}")
    if not frag:                 # krest^T [ch][tok]
        for half in range(2):
            for i in range(8 * half, 8 * half + 8):
                w(f"{ind}%krs{i} = arith.mulf {kis[i]}, %dlast : f32")
            w(f"{ind}%krv{half} = vector.from_elements {', '.join(f'%krs{i}' for i in range(8 * half, 8 * half + 8))} : vector<8xf32>")
            w(f"{ind}%krh{half} = arith.truncf %krv{half} : vector<8xf32> to {B8}")
            w(f"{ind}%kro{half} = arith.muli %tid, {c(C)} : index")
            w(f"{ind}%kroh{half} = arith.addi %kro{half}, {c(8 * half)} : index")
            w(f"{ind}cake.store %krh{half}, %ws_kr[%slot, %h, %kroh{half}] : {B8}, {ws_type('ws_kr')}")
    # krest^T of channel ch = 16s + r: lane g = 2 (r / 4) + r % 2, tile b = (r % 4) / 2 (see above).
    krest_frag_start = len(e.lines)
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
    if not frag:
        del e.lines[krest_frag_start:]
    w(f"{ind}cake.barrier")
    # ---- C: -L (warp 0, to shared) and Mq (warp 1, to the workspace) on mma.sync ----
    w(f"{ind}%rg = arith.divui %lane, {c(4)} : index")
    w(f"{ind}%qq = arith.remui %lane, {c(4)} : index")
    w(f"{ind}%q4 = arith.muli %qq, {c(4)} : index")
    w(f"{ind}%q2 = arith.muli %qq, {c(2)} : index")
    w(f"{ind}%rg8 = arith.addi %rg, {c(8)} : index")
    w(f"{ind}%w0 = arith.cmpi eq, %wp, {c(0)} : index")
    w(f"{ind}%w1 = arith.cmpi eq, %wp, {c(1)} : index")
    # kdec and qdec to the workspace in fragment order: piece pc = (s, g, q) holds rows g, g + 8
    # at channels 16s + 4q .. + 3 (interleaved by pairs for qdec, an A fragment).
    for rr in range(C * KV // 8 // PREP_BLOCK if not frag else 0):    # row-major: 16-byte rows pieces
        w(f"{ind}%fp{rr} = arith.addi %tid, {c(PREP_BLOCK * rr)} : index")
        w(f"{ind}%ft{rr} = arith.divui %fp{rr}, {c(KV // 8)} : index")
        w(f"{ind}%fpc{rr} = arith.remui %fp{rr}, {c(KV // 8)} : index")
        w(f"{ind}%fc{rr} = arith.muli %fpc{rr}, {c(8)} : index")
        w(f"{ind}%fo{rr} = arith.muli %fp{rr}, {c(8)} : index")
        for t, buf in (("k", "kdec"), ("q", "qdec")):
            w(f"{ind}%f{t}v{rr} = cake.load %{buf}[%ft{rr}, %fc{rr}] : {sm[buf]} -> {B8}")
            w(f"{ind}cake.store %f{t}v{rr}, %ws_{t}d[%slot, %h, %fo{rr}] : {B8}, {ws_type(f'ws_{t}d')}")
    for rr in range(C * KV // 8 // PREP_BLOCK if frag else 0):
        w(f"{ind}%fp{rr} = arith.addi %tid, {c(PREP_BLOCK * rr)} : index")
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
    # INVb[i][col] at 8 (4 (i % 8) + (col % 8) / 2) + 4 (i / 8) + 2 (col / 8) + col % 2.
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


# ----------------------------------------------------------------------------------------------
# Pass 2: the state recurrence over the chunks
# ----------------------------------------------------------------------------------------------

STATE_PARAMS = [("v", QT, "v"), ("cu", "!cake.tensor<[S], i64>", "cu_seqlens")] + \
    [(n, ws_type(n), n) for n in WORKSPACE] + \
    [("h0", ST, "initial_state"), ("ht", ST, "final_state"), ("o", QT, "out"),
     ("use_h0", "i32", "use_initial_state"), ("store_ht", "i32", "store_final_state")]


class ChunkCopies:
    """The cp.async plan of pass 2: each thread's 16-byte pieces of a chunk's operands (workspace
    arrays at the chunk's slot, rows of v), emitted as one commit group per chunk and ring stage."""

    def __init__(self, w, c, threads, sm):
        self.w, self.c, self.threads, self.sm = w, c, threads, sm
        self.copies = []      # (guard, workspace array, its index (slot), buffer, its index (stage))
        self.vcopies = []     # (guard, row, column in the buffer, column in v)

    def pieces(self, tag, rows, per_row, width):
        """This thread's pieces of a rows x per_row grid of `width`-element pieces, one per thread
        and round: [(guard or None, row, first column, piece in the row, round)]."""
        w, c, out = self.w, self.c, []
        total = rows * per_row
        for r in range((total + self.threads - 1) // self.threads):
            w(f"  %{tag}i{r} = arith.addi %tid, {c(self.threads * r)} : index")
            w(f"  %{tag}r{r} = arith.divui %{tag}i{r}, {c(per_row)} : index")
            w(f"  %{tag}p{r} = arith.remui %{tag}i{r}, {c(per_row)} : index")
            guard = None
            if total < self.threads * (r + 1):
                guard = f"%{tag}g{r}"
                w(f"  {guard} = arith.cmpi ult, %{tag}i{r}, {c(total)} : index")
            w(f"  %{tag}c{r} = arith.muli %{tag}p{r}, {c(width)} : index")
            out.append((guard, f"%{tag}r{r}", f"%{tag}c{r}", f"%{tag}p{r}", r))
        return out

    def add(self, guard, array, src, buf, dst):
        self.copies.append((guard, array, src, buf, dst))

    def add_v(self, vb):
        """The chunk's 16 rows of v, columns %vbase .. + vb (rows past T are zero-filled)."""
        for guard, row, col, _, r in self.pieces("pv", C, vb // 8, 8):
            self.w(f"  %pvgc{r} = arith.addi %vbase, {col} : index")
            self.vcopies.append((guard, row, col, f"%pvgc{r}", r))

    def emit(self, jj, stage, tag, ind):
        """cp.async of chunk `jj`'s operands into ring stage `stage`: one commit group."""
        w, c, sm = self.w, self.c, self.sm
        w(f"{ind}%sl{tag} = arith.addi %slot0, {jj} : index")
        w(f"{ind}%tj{tag} = arith.muli {jj}, {c(C)} : index")
        w(f"{ind}%tb{tag} = arith.addi %bos, %tj{tag} : index")

        def guarded(guard, line):
            if guard:
                w(f"{ind}scf.if {guard} {{")
                w(f"{ind}  {line}")
                w(f"{ind}}}")
            else:
                w(f"{ind}{line}")
        for guard, a, src, d, dst in self.copies:
            guarded(guard, f"cake.cp_async %{a}[{src(f'%sl{tag}')}], %{d}[{dst(stage)}], bytes 16 : "
                    f"{ws_type(a)}, {sm[d]}")
        for guard, row, col, gcol, r in self.vcopies:
            w(f"{ind}%vt{tag}{r} = arith.addi %tb{tag}, {row} : index")
            guarded(guard, f"cake.cp_async %v[%vt{tag}{r}, %h, {gcol}], %sv[{stage}, {row}, {col}], "
                    f"bytes 16 masked : {QT}, {sm['sv']}")
        w(f"{ind}cake.cp_async.commit")

    def prologue(self):
        """%nch, the sequence's chunks, and the copies of its first two into stages 0 and 1."""
        w, c = self.w, self.c
        w("  %seqlen = arith.subi %eos, %bos : index")
        w(f"  %seq15 = arith.addi %seqlen, {c(C - 1)} : index")
        w(f"  %nch = arith.divui %seq15, {c(C)} : index")
        self.emit(c(0), c(0), "a", "  ")
        self.emit(c(1), c(1), "b", "  ")

    def chunk_head(self, ind):
        """The top of iteration %jj (stage %st): wait for its copies, free the stage of the chunk
        before, copy chunk jj + 2 into it; %stn (the next stage), %t0 and %len (its tokens)."""
        w, c = self.w, self.c
        w(f"{ind}cake.cp_async.wait 1")      # this chunk's group; the next one may be in flight
        w(f"{ind}cake.barrier")              # its copies are visible; the stage of jj - 1 is free
        w(f"{ind}%st1 = arith.addi %st, {c(1)} : index")
        w(f"{ind}%st2 = arith.addi %st, {c(2)} : index")
        w(f"{ind}%stn = arith.remui %st1, {c(STAGES)} : index")
        w(f"{ind}%stf = arith.remui %st2, {c(STAGES)} : index")
        w(f"{ind}%jf = arith.addi %jj, {c(2)} : index")
        self.emit("%jf", "%stf", "f", ind)
        w(f"{ind}%tjj = arith.muli %jj, {c(C)} : index")
        w(f"{ind}%t0 = arith.addi %bos, %tjj : index")
        w(f"{ind}%left = arith.subi %eos, %t0 : index")
        w(f"{ind}%len = arith.minui %left, {c(C)} : index")


def generate_state(p):
    if (p.get("vb"), p.get("ks")) not in SHAPES:
        raise ValueError(f"illegal wy variant {p}")
    vb, ks = p["vb"], p["ks"]
    nt_threads = 2 * vb * ks
    steps = KV // 16 // ks        # the warp's k-steps (16 channels each) of the state
    e = Emitter()
    w, c = e, e.c
    header(w, p, state_name(p), STATE_PARAMS, nt_threads, f"{slices(p)}, h, n")
    head = len(e.lines)
    sm = {"skd": f"!cake.smem<{STAGES}x{C * KV}xbf16>", "sqd": f"!cake.smem<{STAGES}x{C * KV}xbf16>",
          "skr": f"!cake.smem<{STAGES}x{C * KV}xbf16>",
          "smq": f"!cake.smem<{STAGES}x{C * C}xbf16>", "sinv": f"!cake.smem<{STAGES}x{C * C}xbf16>",
          "sdl": f"!cake.smem<{STAGES}x{KV}xf32>", "sv": f"!cake.smem<{STAGES}x{C}x{vb}xbf16, pad = 8>"}
    if ks > 1:   # partial W^T and O of each channel part: [column group][part][tile][lane x 4]
        sm["sx"] = f"!cake.smem<{vb // 16}x{ks}x4x128xf32>"
    for line in ("%tid = cake.thread_id x", "%lane = cake.lane_id", "%wp = cake.warp_id",
                 "%vs = cake.block_id x", "%h = cake.block_id y", "%n = cake.block_id z"):
        w("  " + line)
    sequence_bounds(w, c)
    w("  %i0 = arith.constant 0 : i32")
    w(f"  %z4 = arith.constant dense<0.0> : {V4}")
    for buf, t in sm.items():
        w(f"  %{buf} = cake.alloc_smem : {t}")
    # mma roles: g = lane / 4, q = lane % 4; the warp's 16 state columns from %vw (in the slice).
    w(f"  %rg = arith.divui %lane, {c(4)} : index")
    w(f"  %qq = arith.remui %lane, {c(4)} : index")
    w(f"  %q4 = arith.muli %qq, {c(4)} : index")
    w(f"  %q2 = arith.muli %qq, {c(2)} : index")
    w(f"  %rg8 = arith.addi %rg, {c(8)} : index")
    if ks > 1:   # warp = (column group, channel part)
        w(f"  %vgrp = arith.divui %wp, {c(ks)} : index")
        w(f"  %kh = arith.remui %wp, {c(ks)} : index")
        w(f"  %kbase = arith.muli %kh, {c(KV // ks)} : index")
        w(f"  %fbase = arith.muli %kh, {c(256 * steps)} : index")
        w(f"  %kp = arith.subi {c(ks - 1)}, %kh : index")       # the other part (ks = 2)
    else:
        w("  %vgrp = arith.addi %wp, %c0 : index")
        c(0)
    w(f"  %vw = arith.muli %vgrp, {c(16)} : index")
    w(f"  %vbase = arith.muli %vs, {c(vb)} : index")
    w("  %vsb = arith.addi %vbase, %vw : index")
    for r in range(2):          # the lane's state columns (C rows g, g + 8): in the slice, global
        w(f"  %vl{r} = arith.addi %vw, {'%rg8' if r else '%rg'} : index")
        w(f"  %vg{r} = arith.addi %vbase, %vl{r} : index")
    for vt in range(2):         # O's columns (2q, 2q + 1 of the warp's 8-column tile vt)
        w(f"  %vo{vt} = arith.addi %vsb, {c(8 * vt)} : index")
        w(f"  %vc{vt} = arith.addi %vo{vt}, %q2 : index")
    w(f"  %l8 = arith.muli %lane, {c(8)} : index")        # the lane's fragments (WORKSPACE)
    w(f"  %q4l = arith.muli %lane, {c(4)} : index")
    if ks > 1:
        w("  %q4k = arith.addi %q4, %kbase : index")
        w("  %l8k = arith.addi %l8, %fbase : index")
    for s in range(steps):      # a lane's channels 16s + 4q .. + 3 (of the warp's part)
        w(f"  %ch{s} = arith.addi {'%q4k' if ks > 1 else '%q4'}, {c(16 * s)} : index")
        w(f"  %fo{s} = arith.addi {'%l8k' if ks > 1 else '%l8'}, {c(256 * s)} : index")

    # cp.async: the workspace arrays are contiguous per (slot, head): flat pieces.
    cp = ChunkCopies(w, c, nt_threads, sm)
    for tag, n, arrays, width in (("pk", C * KV, (("ws_kd", "skd"), ("ws_qd", "sqd"), ("ws_kr", "skr")), 8),
                                  ("pm", C * C, (("ws_mq", "smq"), ("ws_inv", "sinv")), 8),
                                  ("pd", KV, (("ws_dl", "sdl"),), 4)):
        for guard, _, col, _, _ in cp.pieces(tag, 1, n // width, width):
            for a, d in arrays:
                cp.add(guard, a, lambda sl, col=col: f"{sl}, %h, {col}", d, lambda st, col=col: f"{st}, {col}")
    cp.add_v(vb)

    # ---- the initial state: S^T tiles 2s, 2s + 1 hold channels 16s + 4q + {0, 1} and {2, 3} ----
    tiles = 2 * steps
    atypes = ", ".join([V4] * tiles)
    w("  %useh0 = arith.cmpi ne, %use_h0, %i0 : i32")
    w(f"  %init:{tiles} = scf.if %useh0 -> ({atypes}) {{")
    for s in range(steps):
        for r in range(2):
            w(f"    %h0{s}_{r} = cake.load %h0[%n, %h, %vg{r}, %ch{s}] : {ST} -> {V4}")
        w(f"    %h0t{2 * s} = vector.shuffle %h0{s}_0, %h0{s}_1 [0, 1, 4, 5] : {V4}, {V4}")
        w(f"    %h0t{2 * s + 1} = vector.shuffle %h0{s}_0, %h0{s}_1 [2, 3, 6, 7] : {V4}, {V4}")
    w(f"    scf.yield {', '.join(f'%h0t{nt}' for nt in range(tiles))} : {atypes}")
    w("  } else {")
    w(f"    scf.yield {', '.join(['%z4'] * tiles)} : {atypes}")
    w("  }")
    cp.prologue()
    accs = [f"%s{nt}" for nt in range(tiles)]
    inits = ", ".join(f"{a} = %init#{i}" for i, a in enumerate(accs))
    w(f"  %fin:{tiles + 1} = scf.for %jj = {c(0)} to %nch step {c(1)} iter_args({inits}, %st = {c(0)}) "
      f"-> ({atypes}, index) {{")
    ind = "    "
    cp.chunk_head(ind)
    # S^T as bf16: A fragments (k-step s = tiles 2s, 2s + 1) and B fragments of S (v tiles 0, 1).
    for s in range(steps):
        w(f"{ind}%af{s} = vector.shuffle {accs[2 * s]}, {accs[2 * s + 1]} [0, 1, 2, 3, 4, 5, 6, 7] : {V4}, {V4}")
        w(f"{ind}%ab{s} = arith.truncf %af{s} : vector<8xf32> to {B8}")
        for vt in range(2):
            sel = "0, 1, 4, 5" if vt == 0 else "2, 3, 6, 7"
            w(f"{ind}%sb{s}_{vt} = vector.shuffle %ab{s}, %ab{s} [{sel}] : {B8}, {B8}")
    # W^T = S^T kdec^T (two chains per token tile: shorter dependence), O = qdec S.
    wacc = {(u, x): "%z4" for u in range(2) for x in range(2)}
    oacc = {vt: "%z4" for vt in range(2)}
    for s in range(steps):
        w(f"{ind}%bkd{s} = cake.load %skd[%st, %fo{s}] : {sm['skd']} -> {B8}")
        for u in range(2):
            w(f"{ind}%bkd{s}_{u} = vector.shuffle %bkd{s}, %bkd{s} [{', '.join(str(4 * u + e) for e in range(4))}] : {B8}, {B8}")
            w(f"{ind}%w{s}_{u} = cake.mma_sync %ab{s}, %bkd{s}_{u}, {wacc[(u, s % 2)]} : {B8}, {B4}, {V4}")
            wacc[(u, s % 2)] = f"%w{s}_{u}"
        w(f"{ind}%aq{s} = cake.load %sqd[%st, %fo{s}] : {sm['sqd']} -> {B8}")
        for vt in range(2):
            w(f"{ind}%o{s}_{vt} = cake.mma_sync %aq{s}, %sb{s}_{vt}, {oacc[vt]} : {B8}, {B4}, {V4}")
            oacc[vt] = f"%o{s}_{vt}"
    wt = [f"%wt{u}" for u in range(2)]
    for u in range(2):
        w(f"{ind}%wt{u} = arith.addf {wacc[(u, 0)]}, {wacc[(u, 1)]} : {V4}")
    if ks > 1:   # the other channel part's partial W^T and O, through shared memory
        mine = wt + [oacc[0], oacc[1]]
        for i, x in enumerate(mine):
            w(f"{ind}cake.store {x}, %sx[%vgrp, %kh, {c(i)}, %ch0] : {V4}, {sm['sx']}".replace("%ch0", "%q4l"))
        w(f"{ind}cake.barrier")
        for i, x in enumerate(mine):
            w(f"{ind}%xp{i} = cake.load %sx[%vgrp, %kp, {c(i)}, %q4l] : {sm['sx']} -> {V4}")
            w(f"{ind}%xs{i} = arith.addf {x}, %xp{i} : {V4}")
        wt = ["%xs0", "%xs1"]
        oacc = {0: "%xs2", 1: "%xs3"}
    # V'^T = v^T - W^T (C fragment: columns v = g, g + 8; tokens 8u + 2q + {0, 1}).
    for u in range(2):
        els = []
        for x in range(2):
            w(f"{ind}%tv{u}_{x} = arith.addi %q2, {c(8 * u + x)} : index")
        for r in range(2):
            for x in range(2):
                w(f"{ind}%vr{u}_{r}_{x} = cake.load %sv[%st, %tv{u}_{x}, %vl{r}] : {sm['sv']} -> bf16")
                w(f"{ind}%vx{u}_{r}_{x} = arith.extf %vr{u}_{r}_{x} : bf16 to f32")
                els.append(f"%vx{u}_{r}_{x}")
        w(f"{ind}%vv{u} = vector.from_elements {', '.join(els)} : {V4}")
        w(f"{ind}%vp{u} = arith.subf %vv{u}, {wt[u]} : {V4}")
    w(f"{ind}%vpf = vector.shuffle %vp0, %vp1 [0, 1, 2, 3, 4, 5, 6, 7] : {V4}, {V4}")
    w(f"{ind}%vpb = arith.truncf %vpf : vector<8xf32> to {B8}")
    # U^T = V'^T INVb^T (B: INVb[8u + g][2q, 2q + 1 | 2q + 8, 2q + 9]).
    w(f"{ind}%ib = cake.load %sinv[%st, %l8] : {sm['sinv']} -> {B8}")
    for u in range(2):
        w(f"{ind}%ib{u} = vector.shuffle %ib, %ib [{', '.join(str(4 * u + e) for e in range(4))}] : {B8}, {B8}")
        w(f"{ind}%u{u} = cake.mma_sync %vpb, %ib{u}, %z4 : {B8}, {B4}, {V4}")
    w(f"{ind}%uf = vector.shuffle %u0, %u1 [0, 1, 2, 3, 4, 5, 6, 7] : {V4}, {V4}")
    w(f"{ind}%ub = arith.truncf %uf : vector<8xf32> to {B8}")
    # O += Mq U (A: Mq rows g, g + 8, columns 2q, 2q + 1 | 2q + 8, 2q + 9; B: U from U^T's C).
    w(f"{ind}%am = cake.load %smq[%st, %l8] : {sm['smq']} -> {B8}")
    for vt in range(2):
        sel = "0, 1, 4, 5" if vt == 0 else "2, 3, 6, 7"
        w(f"{ind}%bu{vt} = vector.shuffle %ub, %ub [{sel}] : {B8}, {B8}")
        w(f"{ind}%of{vt} = cake.mma_sync %am, %bu{vt}, {oacc[vt]} : {B8}, {B4}, {V4}")
        w(f"{ind}%ob{vt} = arith.truncf %of{vt} : {V4} to {B4}")
    for r in range(2):
        row = "%rg8" if r else "%rg"
        w(f"{ind}%oin{r} = arith.cmpi ult, {row}, %len : index")
        w(f"{ind}%ot{r} = arith.addi %t0, {row} : index")
        for vt in range(2):
            w(f"{ind}%op{vt}_{r} = vector.shuffle %ob{vt}, %ob{vt} [{2 * r}, {2 * r + 1}] : {B4}, {B4}")
        if ks > 1:           # both parts hold O: part vt stores column tile vt
            for vt in range(2):
                w(f"{ind}%oown{vt}_{r} = arith.cmpi eq, %kh, {c(vt)} : index")
                w(f"{ind}%ost{vt}_{r} = arith.andi %oin{r}, %oown{vt}_{r} : i1")
                w(f"{ind}scf.if %ost{vt}_{r} {{")
                w(f"{ind}  cake.store %op{vt}_{r}, %o[%ot{r}, %h, %vc{vt}] : {BB2}, {QT}")
                w(f"{ind}}}")
        else:
            w(f"{ind}scf.if %oin{r} {{")
            for vt in range(2):
                w(f"{ind}  cake.store %op{vt}_{r}, %o[%ot{r}, %h, %vc{vt}] : {BB2}, {QT}")
            w(f"{ind}}}")
    # S^T <- S^T diag(dlast) + U^T krest^T.
    new = []
    for s in range(steps):
        w(f"{ind}%dl{s} = cake.load %sdl[%st, %ch{s}] : {sm['sdl']} -> {V4}")
        w(f"{ind}%bkrs{s} = cake.load %skr[%st, %fo{s}] : {sm['skr']} -> {B8}")
        for b in range(2):
            nt = 2 * s + b
            sel = "0, 1, 0, 1" if b == 0 else "2, 3, 2, 3"
            w(f"{ind}%df{nt} = vector.shuffle %dl{s}, %dl{s} [{sel}] : {V4}, {V4}")
            w(f"{ind}%sd{nt} = arith.mulf {accs[nt]}, %df{nt} : {V4}")
            w(f"{ind}%bkr{nt} = vector.shuffle %bkrs{s}, %bkrs{s} [{', '.join(str(4 * b + e) for e in range(4))}] : {B8}, {B8}")
            w(f"{ind}%sn{nt} = cake.mma_sync %ub, %bkr{nt}, %sd{nt} : {B8}, {B4}, {V4}")
            new.append(f"%sn{nt}")
    w(f"{ind}scf.yield {', '.join(new)}, %stn : {atypes}, index")
    w("  }")
    # The last iterations prefetched chunks past the sequence: retire them before the block exits.
    w("  cake.cp_async.wait 0")
    w("  %storeht = arith.cmpi ne, %store_ht, %i0 : i32")
    w("  scf.if %storeht {")
    for s in range(steps):
        for r in range(2):
            w(f"    %fs{s}_{r} = vector.shuffle %fin#{2 * s}, %fin#{2 * s + 1} [{2 * r}, {2 * r + 1}, {4 + 2 * r}, {5 + 2 * r}] : {V4}, {V4}")
            w(f"    cake.store %fs{s}_{r}, %ht[%n, %h, %vg{r}, %ch{s}] : {V4}, {ST}")
    w("  }")
    w("  cake.return")
    w("}")
    return e.text(head)


# ----------------------------------------------------------------------------------------------
# Pass 2 on wgmma: a warpgroup owns 64 state columns
# ----------------------------------------------------------------------------------------------

def generate_state_wg(p):
    """Pass 2 with wgmma (A from registers, B tiles from swizzled shared memory, row-major
    workspace of `generate_prep("nat")`): warpgroup w of the block owns state columns
    64w .. 64w + 63 of its slice, S^T [64 x 128] as one m64n128 accumulator. Per chunk:
    W^T = S^T kdec^T and O^T = S^T qdec^T (8 + 8 m64n16k16 steps), V'^T = v^T - W^T,
    U^T = V'^T INVb^T (m64n16k16), S^T <- S^T diag(dlast) + U^T krest^T (m64n128k16) and
    O^T += U^T Mq^T (m64n16k16); one wgmma group wait between dependent steps."""
    if p.get("vb") not in (64, 128) or p.get("mma") != "wgmma":
        raise ValueError(f"illegal wy wgmma variant {p}")
    vb = p["vb"]
    nt_threads = 2 * vb
    e = Emitter()
    w, c = e, e.c
    header(w, p, state_name(p), STATE_PARAMS, nt_threads, f"{slices(p)}, h, n")
    head = len(e.lines)
    V8, V64 = "vector<8xf32>", "vector<64xf32>"
    sm = {"skd": f"!cake.smem<{STAGES}x2x{C}x64xbf16, swizzle = 128>",
          "sqd": f"!cake.smem<{STAGES}x2x{C}x64xbf16, swizzle = 128>",
          "skr": f"!cake.smem<{STAGES}x{KV}x{C}xbf16, swizzle = 32>",
          "smq": f"!cake.smem<{STAGES}x{C}x{C}xbf16, swizzle = 32>",
          "sinv": f"!cake.smem<{STAGES}x{C}x{C}xbf16, swizzle = 32>",
          "sdl": f"!cake.smem<{STAGES}x{KV}xf32>", "sv": f"!cake.smem<{STAGES}x{C}x{vb}xbf16, pad = 8>"}
    for line in ("%tid = cake.thread_id x", "%lane = cake.lane_id", "%wp = cake.warp_id",
                 "%vs = cake.block_id x", "%h = cake.block_id y", "%n = cake.block_id z"):
        w("  " + line)
    sequence_bounds(w, c)
    w("  %i0 = arith.constant 0 : i32")
    w(f"  %z8 = arith.constant dense<0.0> : {V8}")
    for buf, t in sm.items():
        w(f"  %{buf} = cake.alloc_smem : {t}")
    # Accumulator element 4j + 2r + x of a thread: row 16 (warp) + g + 8r, column 8j + 2q + x.
    w(f"  %rg = arith.divui %lane, {c(4)} : index")
    w(f"  %qq = arith.remui %lane, {c(4)} : index")
    w(f"  %q2 = arith.muli %qq, {c(2)} : index")
    w(f"  %vw = arith.muli %wp, {c(16)} : index")
    w(f"  %vbase = arith.muli %vs, {c(vb)} : index")
    for r in range(2):
        w(f"  %vl{r} = arith.addi %vw, {c(8 * r)} : index")
        w(f"  %vl{r}g = arith.addi %vl{r}, %rg : index")             # in the slice
        w(f"  %vg{r} = arith.addi %vbase, %vl{r}g : index")            # in V
    for j in range(KV // 8):
        w(f"  %cj{j} = arith.addi %q2, {c(8 * j)} : index")
    for j in range(2):
        for x in range(2):
            w(f"  %tj{j}_{x} = arith.addi %q2, {c(8 * j + x)} : index")

    # cp.async: kdec/qdec rows split into two 64-channel halves (128-byte swizzle rows).
    cp = ChunkCopies(w, c, nt_threads, sm)
    for guard, row, col, pc, r in cp.pieces("pk", C, KV // 8, 8):
        w(f"  %pkh{r} = arith.divui {pc}, {c(8)} : index")          # the 64-channel half
        w(f"  %pkq{r} = arith.remui {pc}, {c(8)} : index")
        w(f"  %pkc8{r} = arith.muli %pkq{r}, {c(8)} : index")
        w(f"  %pko{r} = arith.muli {row}, {c(KV)} : index")
        w(f"  %pkg{r} = arith.addi %pko{r}, {col} : index")
        for a, d in (("ws_kd", "skd"), ("ws_qd", "sqd")):
            cp.add(guard, a, lambda sl, r=r: f"{sl}, %h, %pkg{r}", d,
                   lambda st, r=r, row=row: f"{st}, %pkh{r}, {row}, %pkc8{r}")
    for tag, rows, arrs in (("pr", KV, (("ws_kr", "skr"),)), ("pm", C, (("ws_mq", "smq"), ("ws_inv", "sinv")))):
        for guard, row, col, pc, r in cp.pieces(tag, rows, C // 8, 8):
            w(f"  %{tag}o{r} = arith.muli {row}, {c(C)} : index")
            w(f"  %{tag}g{r}x = arith.addi %{tag}o{r}, {col} : index")
            for a, d in arrs:
                cp.add(guard, a, lambda sl, g=f"%{tag}g{r}x": f"{sl}, %h, {g}", d,
                       lambda st, row=row, col=col: f"{st}, {row}, {col}")
    for guard, row, col, pc, r in cp.pieces("pd", 1, KV // 4, 4):
        cp.add(guard, "ws_dl", lambda sl, col=col: f"{sl}, %h, {col}", "sdl", lambda st, col=col: f"{st}, {col}")
    cp.add_v(vb)

    def concat(parts, width, tag, ind):
        """One vector of the `width`-element pieces `parts` (in order)."""
        level = 0
        while len(parts) > 1:
            nxt = []
            for i in range(0, len(parts), 2):
                name = f"%{tag}c{level}_{i // 2}"
                idx = ", ".join(str(k) for k in range(2 * width))
                w(f"{ind}{name} = vector.shuffle {parts[i]}, {parts[i + 1]} [{idx}] : "
                  f"vector<{width}xf32>, vector<{width}xf32>")
                nxt.append(name)
            parts, width, level = nxt, 2 * width, level + 1
        return parts[0]

    # ---- the initial state ----
    w("  %useh0 = arith.cmpi ne, %use_h0, %i0 : i32")
    w(f"  %init = scf.if %useh0 -> ({V64}) {{")
    quads = []
    for j in range(KV // 8):
        for r in range(2):
            w(f"    %h0{j}_{r} = cake.load %h0[%n, %h, %vg{r}, %cj{j}] : {ST} -> {V2}")
        w(f"    %h0q{j} = vector.shuffle %h0{j}_0, %h0{j}_1 [0, 1, 2, 3] : {V2}, {V2}")
        quads.append(f"%h0q{j}")
    w(f"    scf.yield {concat(quads, 4, 'h0', '    ')} : {V64}")
    w("  } else {")
    w(f"    %z64 = arith.constant dense<0.0> : {V64}")
    w(f"    scf.yield %z64 : {V64}")
    w("  }")
    cp.prologue()
    w(f"  %fin:2 = scf.for %jj = {c(0)} to %nch step {c(1)} iter_args(%s = %init, %st = {c(0)}) "
      f"-> ({V64}, index) {{")
    ind = "    "
    cp.chunk_head(ind)
    # S^T as A fragments: k-step s is accumulator elements 8s .. 8s + 7.
    for s in range(KV // 16):
        idx = ", ".join(str(8 * s + k) for k in range(8))
        w(f"{ind}%af{s} = vector.shuffle %s, %s [{idx}] : {V64}, {V64}")
        w(f"{ind}%ab{s} = arith.truncf %af{s} : {V8} to {B8}")
    # S^T diag(dlast): element 4j + 2r + x is channel 8j + 2q + x.
    quads = []
    for j in range(KV // 8):
        w(f"{ind}%dl{j} = cake.load %sdl[%st, %cj{j}] : {sm['sdl']} -> {V2}")
        w(f"{ind}%dq{j} = vector.shuffle %dl{j}, %dl{j} [0, 1, 0, 1] : {V2}, {V2}")
        quads.append(f"%dq{j}")
    w(f"{ind}%sd = arith.mulf %s, {concat(quads, 4, 'dl', ind)} : {V64}")
    # W^T = S^T kdec^T, O^T = S^T qdec^T.
    w(f"{ind}cake.wgmma.fence")
    wacc, oacc = "%z8", "%z8"
    for s in range(KV // 16):
        b = f"%st, {c(s // 4)}, {c(0)}, {c(16 * (s % 4))}"
        w(f"{ind}%w{s} = cake.wgmma.regs %ab{s}, %skd[{b}], {wacc} : {B8}, {sm['skd']}, {V8}")
        w(f"{ind}%o{s} = cake.wgmma.regs %ab{s}, %sqd[{b}], {oacc} : {B8}, {sm['sqd']}, {V8}")
        wacc, oacc = f"%w{s}", f"%o{s}"
    w(f"{ind}cake.wgmma.commit")
    w(f"{ind}cake.wgmma.wait 0")
    # V'^T = v^T - W^T: element 4j + 2r + x is column g + 8r, token 8j + 2q + x.
    els = []
    for j in range(2):
        for r in range(2):
            for x in range(2):
                w(f"{ind}%vr{j}_{r}_{x} = cake.load %sv[%st, %tj{j}_{x}, %vl{r}g] : {sm['sv']} -> bf16")
                w(f"{ind}%vx{j}_{r}_{x} = arith.extf %vr{j}_{r}_{x} : bf16 to f32")
                els.append(f"%vx{j}_{r}_{x}")
    w(f"{ind}%vv = vector.from_elements {', '.join(els)} : {V8}")
    w(f"{ind}%vp = arith.subf %vv, {wacc} : {V8}")
    w(f"{ind}%vpb = arith.truncf %vp : {V8} to {B8}")
    w(f"{ind}cake.wgmma.fence")
    w(f"{ind}%u = cake.wgmma.regs %vpb, %sinv[%st, {c(0)}, {c(0)}], %z8 : {B8}, {sm['sinv']}, {V8}")
    w(f"{ind}cake.wgmma.commit")
    w(f"{ind}cake.wgmma.wait 0")
    w(f"{ind}%ub = arith.truncf %u : {V8} to {B8}")
    w(f"{ind}cake.wgmma.fence")
    w(f"{ind}%sn = cake.wgmma.regs %ub, %skr[%st, {c(0)}, {c(0)}], %sd : {B8}, {sm['skr']}, {V64}")
    w(f"{ind}%of = cake.wgmma.regs %ub, %smq[%st, {c(0)}, {c(0)}], {oacc} : {B8}, {sm['smq']}, {V8}")
    w(f"{ind}cake.wgmma.commit")
    w(f"{ind}cake.wgmma.wait 0")
    # O^T: element 4j + 2r + x is out[t0 + 8j + 2q + x][h][vbase + column g + 8r].
    w(f"{ind}%ob = arith.truncf %of : {V8} to vector<8xbf16>")
    for j in range(2):
        for x in range(2):
            w(f"{ind}%oin{j}_{x} = arith.cmpi ult, %tj{j}_{x}, %len : index")
            w(f"{ind}%ot{j}_{x} = arith.addi %t0, %tj{j}_{x} : index")
            w(f"{ind}scf.if %oin{j}_{x} {{")
            for r in range(2):
                w(f"{ind}  %oe{j}_{r}_{x} = vector.extract %ob[{4 * j + 2 * r + x}] : bf16 from vector<8xbf16>")
                w(f"{ind}  cake.store %oe{j}_{r}_{x}, %o[%ot{j}_{x}, %h, %vg{r}] : bf16, {QT}")
            w(f"{ind}}}")
    w(f"{ind}scf.yield %sn, %stn : {V64}, index")
    w("  }")
    w("  cake.cp_async.wait 0")
    w("  %storeht = arith.cmpi ne, %store_ht, %i0 : i32")
    w("  scf.if %storeht {")
    for j in range(KV // 8):
        for r in range(2):
            w(f"    %fs{j}_{r} = vector.shuffle %fin#0, %fin#0 [{4 * j + 2 * r}, {4 * j + 2 * r + 1}] : {V64}, {V64}")
            w(f"    cake.store %fs{j}_{r}, %ht[%n, %h, %vg{r}, %cj{j}] : {V2}, {ST}")
    w("  }")
    w("  cake.return")
    w("}")
    return e.text(head)
