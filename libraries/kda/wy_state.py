"""Pass 2 of the `wy` family on mma.sync: a warp owns 16 state columns (wy.py has the design),
and the cp.async plan both pass-2 generators use."""

from kda_common import KV, QT, ST, longest_first_sequence
from wy_common import (B4, B8, BB2, C, SHAPES, STAGES, V4, WORKSPACE, Emitter, header, sequence_bounds,
                       slices, state_name, ws_type)


# ws_hs carries each (sequence, head)'s state from one launch of a segmented call to the next
# (kda_fwd runs pass 1 and pass 2 over consecutive ranges of chunk slots [slot_lo, slot_hi), pass 2
# of one range beside pass 1 of the next); one launch over all slots never touches it.
def state_params(chunk=C):
    return [("v", QT, "v"), ("cu", "!cake.tensor<[S], i64>", "cu_seqlens")] + \
        [(n, ws_type(n, chunk), n) for n in WORKSPACE] + \
        [("h0", ST, "initial_state"), ("ht", ST, "final_state"), ("o", QT, "out"), ("hs", ST, "ws_hs"),
         ("use_h0", "i32", "use_initial_state"), ("store_ht", "i32", "store_final_state"),
         ("slo", "i64", "slot_lo"), ("shi", "i64", "slot_hi")]


STATE_PARAMS = state_params()


def segment(w, c, chunk=C):
    """The sequence's chunks in this launch's slots [slot_lo, slot_hi): %nch (all its chunks),
    chunks %jlo .. %jhi; %active (it has one here; an empty sequence counts as one chunk, so
    its final state is written once), %first (it begins here: start from initial_state) and
    %last (it ends here: write final_state; otherwise leave the state in ws_hs)."""
    w("  %seqlen = arith.subi %eos, %bos : index")
    w(f"  %seq15 = arith.addi %seqlen, {c(chunk - 1)} : index")
    w(f"  %nch = arith.divui %seq15, {c(chunk)} : index")
    w(f"  %nch1 = arith.maxui %nch, {c(1)} : index")
    w("  %sgend = arith.addi %slot0, %nch1 : index")
    w("  %sglo = arith.index_cast %slo : i64 to index")
    w("  %sghi = arith.index_cast %shi : i64 to index")
    w("  %first = arith.cmpi uge, %slot0, %sglo : index")
    w("  %last = arith.cmpi ule, %sgend, %sghi : index")
    w("  %sgin0 = arith.cmpi ugt, %sgend, %sglo : index")
    w("  %sgin1 = arith.cmpi ult, %slot0, %sghi : index")
    w("  %active = arith.andi %sgin0, %sgin1 : i1")
    w("  %sgskip = arith.subi %sglo, %slot0 : index")
    w(f"  %jlo = arith.select %first, {c(0)}, %sgskip : index")
    w("  %sgroom = arith.subi %sghi, %slot0 : index")
    w(f"  %sgroomc = arith.select %sgin1, %sgroom, {c(0)} : index")
    w("  %jhi = arith.minui %nch, %sgroomc : index")


def initial_state(w, types, zeros, load):
    """%init#i: the state the launch starts from: initial_state (or zeros) where the sequence
    begins, else what the previous launch left in ws_hs. `load(tensor, tag, ind)` emits the
    loads of a state tensor and returns the names to yield."""
    n = len(zeros)
    tl = ", ".join(types)
    w("  %useh0 = arith.cmpi ne, %use_h0, %i0 : i32")
    w(f"  %init:{n} = scf.if %first -> ({tl}) {{")
    w(f"    %ini:{n} = scf.if %useh0 -> ({tl}) {{")
    w(f"      scf.yield {', '.join(load('%h0', 'h0', '      '))} : {tl}")
    w("    } else {")
    w(f"      scf.yield {', '.join(zeros)} : {tl}")
    w("    }")
    w(f"    scf.yield {', '.join(f'%ini#{i}' for i in range(n))} : {tl}")
    w("  } else {")
    w(f"    scf.yield {', '.join(load('%hs', 'hs', '    '))} : {tl}")
    w("  }")


def final_state(w, store):
    """The state after the launch's chunks: final_state (if asked) where the sequence ends here,
    else ws_hs for the next launch. `store(tensor, ind)` emits the stores."""
    w("  %storeht = arith.cmpi ne, %store_ht, %i0 : i32")
    w("  scf.if %last {")
    w("    scf.if %storeht {")
    store("%ht", "      ")
    w("    }")
    w("  } else {")
    store("%hs", "    ")
    w("  }")


class ChunkCopies:
    """The cp.async plan of pass 2: each thread's 16-byte pieces of a chunk's operands (workspace
    arrays at the chunk's slot, rows of v), emitted as one commit group per chunk and ring stage."""

    def __init__(self, w, c, threads, sm, chunk=C):
        self.w, self.c, self.threads, self.sm, self.chunk = w, c, threads, sm, chunk
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
        """The chunk's rows of v, columns %vbase .. + vb (rows past T are zero-filled)."""
        for guard, row, col, _, r in self.pieces("pv", self.chunk, vb // 8, 8):
            self.w(f"  %pvgc{r} = arith.addi %vbase, {col} : index")
            self.vcopies.append((guard, row, col, f"%pvgc{r}", r))

    def emit(self, jj, stage, tag, ind):
        """cp.async of chunk `jj`'s operands into ring stage `stage`: one commit group."""
        w, c, sm = self.w, self.c, self.sm
        w(f"{ind}%sl{tag} = arith.addi %slot0, {jj} : index")
        w(f"{ind}%tj{tag} = arith.muli {jj}, {c(self.chunk)} : index")
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
                    f"{ws_type(a, self.chunk)}, {sm[d]}")
        for guard, row, col, gcol, r in self.vcopies:
            w(f"{ind}%vt{tag}{r} = arith.addi %tb{tag}, {row} : index")
            guarded(guard, f"cake.cp_async %v[%vt{tag}{r}, %h, {gcol}], %sv[{stage}, {row}, {col}], "
                    f"bytes 16 masked : {QT}, {sm['sv']}")
        w(f"{ind}cake.cp_async.commit")

    def prologue(self):
        """The copies of the launch's first two chunks of the sequence (%jlo, segment()) into
        stages 0 and 1."""
        w, c = self.w, self.c
        w(f"  %jlo1 = arith.addi %jlo, {c(1)} : index")
        self.emit("%jlo", c(0), "a", "  ")
        self.emit("%jlo1", c(1), "b", "  ")

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
        w(f"{ind}%tjj = arith.muli %jj, {c(self.chunk)} : index")
        w(f"{ind}%t0 = arith.addi %bos, %tjj : index")
        w(f"{ind}%left = arith.subi %eos, %t0 : index")
        w(f"{ind}%len = arith.minui %left, {c(self.chunk)} : index")


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
                 "%vs = cake.block_id x", "%h = cake.block_id y"):
        w("  " + line)
    longest_first_sequence(w, c, nt_threads)
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

    def load(tensor, tag, ind):
        for s in range(steps):
            for r in range(2):
                w(f"{ind}%{tag}{s}_{r} = cake.load {tensor}[%n, %h, %vg{r}, %ch{s}] : {ST} -> {V4}")
            w(f"{ind}%{tag}t{2 * s} = vector.shuffle %{tag}{s}_0, %{tag}{s}_1 [0, 1, 4, 5] : {V4}, {V4}")
            w(f"{ind}%{tag}t{2 * s + 1} = vector.shuffle %{tag}{s}_0, %{tag}{s}_1 [2, 3, 6, 7] : {V4}, {V4}")
        return [f"%{tag}t{nt}" for nt in range(tiles)]
    segment(w, c)
    w("  scf.if %active {")
    initial_state(w, [V4] * tiles, ["%z4"] * tiles, load)
    cp.prologue()
    accs = [f"%s{nt}" for nt in range(tiles)]
    inits = ", ".join(f"{a} = %init#{i}" for i, a in enumerate(accs))
    w(f"  %fin:{tiles + 1} = scf.for %jj = %jlo to %jhi step {c(1)} iter_args({inits}, %st = {c(0)}) "
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
            w(f"{ind}cake.store {x}, %sx[%vgrp, %kh, {c(i)}, %q4l] : {V4}, {sm['sx']}")
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
    for s in range(steps):
        for r in range(2):
            w(f"  %fs{s}_{r} = vector.shuffle %fin#{2 * s}, %fin#{2 * s + 1} [{2 * r}, {2 * r + 1}, {4 + 2 * r}, {5 + 2 * r}] : {V4}, {V4}")

    def store(tensor, ind):
        for s in range(steps):
            for r in range(2):
                w(f"{ind}cake.store %fs{s}_{r}, {tensor}[%n, %h, %vg{r}, %ch{s}] : {V4}, {ST}")
    final_state(w, store)
    w("  }")
    w("  cake.return")
    w("}")
    return e.text(head)
