"""Pass 2 of the `wy` family on wgmma: a warpgroup owns 64 state columns (wy.py has the design)."""

from kda_common import KV, QT, ST, longest_first_sequence
from wy_common import STAGES, V2, Emitter, chunk_of, header, sequence_bounds, slices, state_name
from wy_state import ChunkCopies, final_state, initial_state, segment, state_params


def generate_state_wg(p):
    """Pass 2 with wgmma (A from registers, B tiles from swizzled shared memory, row-major
    workspace of `generate_prep("nat")`): warpgroup w of the block owns state columns
    64w .. 64w + 63 of its slice, S^T [64 x 128] as one m64n128 accumulator. Per chunk:
    W^T = S^T kdec^T and O^T = S^T qdec^T (8 + 8 m64n16k16 steps), V'^T = v^T - W^T,
    U^T = V'^T INVb^T (m64n16k16), S^T <- S^T diag(dlast) + U^T krest^T (m64n128k16) and
    O^T += U^T Mq^T (m64n16k16); one wgmma group wait between dependent steps. With chunks of
    32 tokens (p["chunk"] = 32, pass 1 of wy_prep32.py) the token dimension doubles: m64n32
    products and two k-steps over tokens, the same three waits per (twice as long) chunk."""
    if p.get("vb") not in (64, 128) or p.get("mma") != "wgmma":
        raise ValueError(f"illegal wy wgmma variant {p}")
    vb, ch = p["vb"], chunk_of(p)
    if ch not in (16, 32):
        raise ValueError(f"illegal wy wgmma chunk {p}")
    nt_threads = 2 * vb
    e = Emitter()
    w, c = e, e.c
    header(w, p, state_name(p), state_params(ch), nt_threads, f"{slices(p)}, h, n")
    head = len(e.lines)
    # V8: an m64n16 accumulator or k-step operand; VT: m64n{ch} (the chunk's tokens as N).
    V8, V64, B8 = "vector<8xf32>", "vector<64xf32>", "vector<8xbf16>"
    VT, BT = f"vector<{ch // 2}xf32>", f"vector<{ch // 2}xbf16>"
    tsw = 2 * ch          # rows of `ch` bf16 tokens: a swizzle of their byte width
    sm = {"skd": f"!cake.smem<{STAGES}x2x{ch}x64xbf16, swizzle = 128>",
          "sqd": f"!cake.smem<{STAGES}x2x{ch}x64xbf16, swizzle = 128>",
          "skr": f"!cake.smem<{STAGES}x{KV}x{ch}xbf16, swizzle = {tsw}>",
          "smq": f"!cake.smem<{STAGES}x{ch}x{ch}xbf16, swizzle = {tsw}>",
          "sinv": f"!cake.smem<{STAGES}x{ch}x{ch}xbf16, swizzle = {tsw}>",
          "sdl": f"!cake.smem<{STAGES}x{KV}xf32>", "sv": f"!cake.smem<{STAGES}x{ch}x{vb}xbf16, pad = 8>"}
    for line in ("%tid = cake.thread_id x", "%lane = cake.lane_id", "%wp = cake.warp_id",
                 "%vs = cake.block_id x", "%h = cake.block_id y"):
        w("  " + line)
    longest_first_sequence(w, c, nt_threads)
    sequence_bounds(w, c, ch)
    w("  %i0 = arith.constant 0 : i32")
    w(f"  %zt = arith.constant dense<0.0> : {VT}")
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
    for j in range(ch // 8):
        for x in range(2):
            w(f"  %tj{j}_{x} = arith.addi %q2, {c(8 * j + x)} : index")

    # cp.async: kdec/qdec rows split into two 64-channel halves (128-byte swizzle rows).
    cp = ChunkCopies(w, c, nt_threads, sm, ch)
    for guard, row, col, pc, r in cp.pieces("pk", ch, KV // 8, 8):
        w(f"  %pkh{r} = arith.divui {pc}, {c(8)} : index")          # the 64-channel half
        w(f"  %pkq{r} = arith.remui {pc}, {c(8)} : index")
        w(f"  %pkc8{r} = arith.muli %pkq{r}, {c(8)} : index")
        w(f"  %pko{r} = arith.muli {row}, {c(KV)} : index")
        w(f"  %pkg{r} = arith.addi %pko{r}, {col} : index")
        for a, d in (("ws_kd", "skd"), ("ws_qd", "sqd")):
            cp.add(guard, a, lambda sl, r=r: f"{sl}, %h, %pkg{r}", d,
                   lambda st, r=r, row=row: f"{st}, %pkh{r}, {row}, %pkc8{r}")
    for tag, rows, arrs in (("pr", KV, (("ws_kr", "skr"),)), ("pm", ch, (("ws_mq", "smq"), ("ws_inv", "sinv")))):
        for guard, row, col, pc, r in cp.pieces(tag, rows, ch // 8, 8):
            w(f"  %{tag}o{r} = arith.muli {row}, {c(ch)} : index")
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
    def load(tensor, tag, ind):
        quads = []
        for j in range(KV // 8):
            for r in range(2):
                w(f"{ind}%{tag}{j}_{r} = cake.load {tensor}[%n, %h, %vg{r}, %cj{j}] : {ST} -> {V2}")
            w(f"{ind}%{tag}q{j} = vector.shuffle %{tag}{j}_0, %{tag}{j}_1 [0, 1, 2, 3] : {V2}, {V2}")
            quads.append(f"%{tag}q{j}")
        return [concat(quads, 4, tag, ind)]
    segment(w, c, ch)
    w(f"  %z64 = arith.constant dense<0.0> : {V64}")
    w("  scf.if %active {")
    initial_state(w, [V64], ["%z64"], load)
    cp.prologue()
    w(f"  %fin:2 = scf.for %jj = %jlo to %jhi step {c(1)} iter_args(%s = %init#0, %st = {c(0)}) "
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
    wacc, oacc = "%zt", "%zt"
    for s in range(KV // 16):
        b = f"%st, {c(s // 4)}, {c(0)}, {c(16 * (s % 4))}"
        w(f"{ind}%w{s} = cake.wgmma.regs %ab{s}, %skd[{b}], {wacc} : {B8}, {sm['skd']}, {VT}")
        w(f"{ind}%o{s} = cake.wgmma.regs %ab{s}, %sqd[{b}], {oacc} : {B8}, {sm['sqd']}, {VT}")
        wacc, oacc = f"%w{s}", f"%o{s}"
    w(f"{ind}cake.wgmma.commit")
    w(f"{ind}cake.wgmma.wait 0")
    # V'^T = v^T - W^T: element 4j + 2r + x is column g + 8r, token 8j + 2q + x.
    els = []
    for j in range(ch // 8):
        for r in range(2):
            for x in range(2):
                w(f"{ind}%vr{j}_{r}_{x} = cake.load %sv[%st, %tj{j}_{x}, %vl{r}g] : {sm['sv']} -> bf16")
                w(f"{ind}%vx{j}_{r}_{x} = arith.extf %vr{j}_{r}_{x} : bf16 to f32")
                els.append(f"%vx{j}_{r}_{x}")
    w(f"{ind}%vv = vector.from_elements {', '.join(els)} : {VT}")
    w(f"{ind}%vp = arith.subf %vv, {wacc} : {VT}")
    w(f"{ind}%vpb = arith.truncf %vp : {VT} to {BT}")

    def ksteps(src, tag):
        """The k-steps (16 tokens each) of an m64n{ch} bf16 operand in registers."""
        if ch == 16:
            return [src]
        out = []
        for s in range(ch // 16):
            idx = ", ".join(str(8 * s + k) for k in range(8))
            w(f"{ind}%{tag}{s} = vector.shuffle {src}, {src} [{idx}] : {BT}, {BT}")
            out.append(f"%{tag}{s}")
        return out
    vks = ksteps("%vpb", "vk")
    w(f"{ind}cake.wgmma.fence")
    u = "%zt"
    for s, a in enumerate(vks):
        w(f"{ind}%u{s} = cake.wgmma.regs {a}, %sinv[%st, {c(0)}, {c(16 * s)}], {u} : {B8}, {sm['sinv']}, {VT}")
        u = f"%u{s}"
    w(f"{ind}cake.wgmma.commit")
    w(f"{ind}cake.wgmma.wait 0")
    w(f"{ind}%ub = arith.truncf {u} : {VT} to {BT}")
    uks = ksteps("%ub", "uk")
    w(f"{ind}cake.wgmma.fence")
    sn, of = "%sd", oacc
    for s, a in enumerate(uks):
        w(f"{ind}%sn{s} = cake.wgmma.regs {a}, %skr[%st, {c(0)}, {c(16 * s)}], {sn} : {B8}, {sm['skr']}, {V64}")
        w(f"{ind}%of{s} = cake.wgmma.regs {a}, %smq[%st, {c(0)}, {c(16 * s)}], {of} : {B8}, {sm['smq']}, {VT}")
        sn, of = f"%sn{s}", f"%of{s}"
    w(f"{ind}cake.wgmma.commit")
    w(f"{ind}cake.wgmma.wait 0")
    # O^T: element 4j + 2r + x is out[t0 + 8j + 2q + x][h][vbase + column g + 8r].
    w(f"{ind}%ob = arith.truncf {of} : {VT} to {BT}")
    for j in range(ch // 8):
        for x in range(2):
            w(f"{ind}%oin{j}_{x} = arith.cmpi ult, %tj{j}_{x}, %len : index")
            w(f"{ind}%ot{j}_{x} = arith.addi %t0, %tj{j}_{x} : index")
            w(f"{ind}scf.if %oin{j}_{x} {{")
            for r in range(2):
                w(f"{ind}  %oe{j}_{r}_{x} = vector.extract %ob[{4 * j + 2 * r + x}] : bf16 from {BT}")
                w(f"{ind}  cake.store %oe{j}_{r}_{x}, %o[%ot{j}_{x}, %h, %vg{r}] : bf16, {QT}")
            w(f"{ind}}}")
    w(f"{ind}scf.yield {sn}, %stn : {V64}, index")
    w("  }")
    w("  cake.cp_async.wait 0")
    for j in range(KV // 8):
        for r in range(2):
            w(f"  %fs{j}_{r} = vector.shuffle %fin#0, %fin#0 [{4 * j + 2 * r}, {4 * j + 2 * r + 1}] : {V64}, {V64}")

    def store(tensor, ind):
        for j in range(KV // 8):
            for r in range(2):
                w(f"{ind}cake.store %fs{j}_{r}, {tensor}[%n, %h, %vg{r}, %cj{j}] : {V2}, {ST}")
    final_state(w, store)
    w("  }")
    w("  cake.return")
    w("}")
    return e.text(head)
