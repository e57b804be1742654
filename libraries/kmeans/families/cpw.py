"""Family `cpw` (sm_90a): wgmma fed by cp.async straight from the user's tensors, no staging.

The TMA families need 16-byte row strides, so a D that is not a multiple of 16 bytes pays a
staging copy of x (one more pass over the largest tensor: 64% of a staged fp32 call, session 26's
ncu). cp.async moves `v` elements (4, 8 or 16 bytes) per thread and copy, into the same 128-byte
swizzled stage layout wgmma reads, so rows need only that alignment (the manifest's constraints):
with 4-byte copies every fp32 D and every even fp16/bf16 D. `v` is the load width of the router's
width groups (route.py), as tcd's. x and c are read as the flat arrays they are ([BND], [BKD]): a thread's
rows are clamped to the last point or centroid (never stored / dropped by the argmin's `valid`)
and their offsets formed once; it copies one column per stage, so one test (`if`: cp.async's
src-size 0, zeros past D) covers all its copies. Session 27's first build tested every copy
against every extent (`masked`) and was bound by that arithmetic (4-byte copies 2-3x slower than
16-byte ones).

No warp roles: the block's warpgroups issue every copy together, `st` stages deep (st - 2 in
flight ahead of the one consumed), and each step waits for its own oldest group, fences the
generic proxy against wgmma's async one, meets at a barrier (every thread's copies landed),
refills the slot consumed two steps ago and starts the stage's wgmma chain, leaving it running
(wgmma.wait 1) under the next step's copies and barrier. A stage is `g` 128-byte column chunks of the point tile
(64 rows per warpgroup) and of a tile of `bk` centroids with the tile's |c|^2; the accumulator is
carried across the ceildiv(D, g * chunk) stages of a centroid tile, then folded into the argmin
(as splitd). One block per point tile; point chunks are re-read per centroid tile (from L2).
"""
from .common import DTYPES, SMEM_LIMIT, _unstaged_head, chunk_width
from .tma import _fold, _wgmma_chain

CPW_BYTES = (4, 8, 16)                      # bytes per copy
CPW_BK = (64, 128, 256)
# Copies per thread and stage: past 64 the unrolled address arithmetic spills (ptxas, sm_90a:
# g = 2, bk = 128, one warpgroup, 4-byte copies: 96 copies, 172 bytes of spills).
CPW_MAX_COPIES = 64


def cpw_name(p):
    return "km_{t}_cpw{g}_k{bk}_w{wg}_s{st}_v{v}".format(t=DTYPES[p["dtype"]][0], **p)


def cpw_copy_bytes(p):
    return p.get("v", 0) * DTYPES[p["dtype"]][1]


def cpw_smem_bytes(p):
    el = DTYPES[p["dtype"]][1]
    return p["st"] * (p["g"] * (64 * p["wg"] + p["bk"]) * chunk_width(p["dtype"]) * el + p["bk"] * 4) + 1024


def _copies_per_row(p):
    """Copies per row of a stage (all its chunks)."""
    return p["g"] * chunk_width(p["dtype"]) // p["v"]


def cpw_domain(p):
    """The rows' alignment a copy needs (v elements): the flat offsets hide it from the manifest."""
    return [f"mod(D, {p['v']}) == 0"] if p["v"] > 1 else []


def cpw_legal(p):
    threads = 128 * p["wg"]
    ok = cpw_copy_bytes(p) in CPW_BYTES
    cpr = _copies_per_row(p) if ok else 0
    return (ok and p["bk"] in CPW_BK and p["wg"] in (1, 2) and p["g"] in (1, 2, 4)
            and p["st"] >= 3 and cpw_smem_bytes(p) <= SMEM_LIMIT
            and threads % cpr == 0 and (p["bk"] <= threads or p["bk"] % threads == 0)
            and (64 * p["wg"] + p["bk"]) * cpr // threads <= CPW_MAX_COPIES)


def cpw_variants(dtypes=DTYPES):
    """The plan's configurations: each tile with the deepest pipeline that fits (up to 4)."""
    out = []
    for d in dtypes:
        for g in (1, 2):
            for bk in (128, 64):
                for wg in (2, 1):
                    for cb in (4, 16):
                        for st in (4, 3):
                            p = {"dtype": d, "g": g, "bk": bk, "wg": wg, "st": st,
                                 "v": cb // DTYPES[d][1]}
                            if cpw_legal(p):
                                out.append(p)
                                break
    return out


def generate_cpw(p):
    if not cpw_legal(p):
        raise ValueError("illegal cpw variant %s" % p)
    ty, el, kstep = DTYPES[p["dtype"]]
    cw, G, bk, wg, st, per = chunk_width(p["dtype"]), p["g"], p["bk"], p["wg"], p["st"], p["v"]
    cb = per * el                            # bytes per copy
    bn, threads = 64 * wg, 128 * wg
    cpc = cw // per                          # copies per row and chunk
    cpr = G * cpc                            # copies per row and stage
    rows_per_pass = threads // cpr           # rows one sweep of the block's copies covers
    xsm = f"!cake.smem<{st}x{G}x1x{bn}x{cw}x{ty}, swizzle = 128>"
    csm = f"!cake.smem<{st}x{G}x1x{bk}x{cw}x{ty}, swizzle = 128>"
    qsm = f"!cake.smem<{st}x{bk}xf32>"
    xt, ct, qt = f"!cake.tensor<[BND], {ty}>", f"!cake.tensor<[BKD], {ty}>", "!cake.tensor<[B, K], f32>"
    acc = f"vector<{bk // 2}xf32>"
    ahead = st - 2                           # stages in flight ahead of the one consumed
    consts = sorted({0, 1, 64, bn, bk, st, ahead, G * cw, cpr, cpc, per, threads}
                    | {cw * j for j in range(G)} | set(range(G)) | set(range(st))
                    | {rows_per_pass * j for j in range(max(bn, bk) // rows_per_pass)}
                    | {kstep * s for s in range(cw // kstep)})
    L = []
    w = L.append
    _unstaged_head(w, p, cpw_name(p), threads, bn, flat=True)
    for v in consts:
        w(f"  %c{v} = arith.constant {v} : index")
    w('  %kdim = cake.problem_size "K"')
    w('  %ddim = cake.problem_size "D"')
    w('  %ndim = cake.problem_size "N"')
    w("  %nlast = arith.subi %ndim, %c1 : index")
    w("  %klast = arith.subi %kdim, %c1 : index")
    w("  %bx = cake.block_id x")
    w("  %b = cake.block_id y")
    w("  %tid = cake.thread_id x")
    w(f"  %m0 = arith.muli %bx, %c{bn} : index")
    w("  %wg = cake.warpgroup_id")
    w("  %row = arith.muli %wg, %c64 : index")
    w(f"  %ktiles = arith.ceildivui %kdim, %c{bk} : index")
    w(f"  %groups = arith.ceildivui %ddim, %c{G * cw} : index")
    w("  %total = arith.muli %ktiles, %groups : index")
    # The thread's copy: row trow (+ rows_per_pass per sweep), chunk tch, column tcol of it.
    w(f"  %trow = arith.divui %tid, %c{cpr} : index")
    w(f"  %trem = arith.remui %tid, %c{cpr} : index")
    w(f"  %tch = arith.divui %trem, %c{cpc} : index")
    w(f"  %tcc = arith.remui %trem, %c{cpc} : index")
    w(f"  %tcol = arith.muli %tcc, %c{per} : index")
    w(f"  %tchw = arith.muli %tch, %c{cw} : index")
    w("  %toff = arith.addi %tchw, %tcol : index")
    w(f"  %xbuf = cake.alloc_smem : {xsm}")
    w(f"  %cbuf = cake.alloc_smem : {csm}")
    w(f"  %qbuf = cake.alloc_smem : {qsm}")
    # The thread's x rows, clamped to the last point (never stored), as flat offsets: set once.
    w("  %bn0 = arith.muli %b, %ndim : index")
    w("  %bk0 = arith.muli %b, %kdim : index")

    def row_offset(ind, tag, first, row, last, batch_base):
        """%o<tag>: the flat offset of row first + row, clamped to `last`, of this batch."""
        w(f"{ind}%p{tag} = arith.addi {first}, {row} : index")
        w(f"{ind}%pc{tag} = arith.minui %p{tag}, {last} : index")
        w(f"{ind}%pr{tag} = arith.addi {batch_base}, %pc{tag} : index")
        w(f"{ind}%o{tag} = arith.muli %pr{tag}, %ddim : index")

    for j in range(bn // rows_per_pass):
        w(f"  %rx_{j} = arith.addi %trow, %c{rows_per_pass * j} : index")
        row_offset("  ", f"x_{j}", "%m0", f"%rx_{j}", "%nlast", "%bn0")

    def issue(ind, it, tag):
        """Every copy of stage `it` (centroid tile it / groups, column group it % groups) to its slot."""
        w(f"{ind}%kt{tag} = arith.divui {it}, %groups : index")
        w(f"{ind}%gi{tag} = arith.remui {it}, %groups : index")
        w(f"{ind}%sl{tag} = arith.remui {it}, %c{st} : index")
        w(f"{ind}%k0{tag} = arith.muli %kt{tag}, %c{bk} : index")
        w(f"{ind}%d0{tag} = arith.muli %gi{tag}, %c{G * cw} : index")
        w(f"{ind}%col{tag} = arith.addi %d0{tag}, %toff : index")
        # One column per thread and stage: one bounds test covers all its copies (zeros past D).
        w(f"{ind}%in{tag} = arith.cmpi ult, %col{tag}, %ddim : index")
        for j in range(bn // rows_per_pass):
            w(f"{ind}%ox{tag}_{j} = arith.addi %ox_{j}, %col{tag} : index")
            w(f"{ind}cake.cp_async %x[%ox{tag}_{j}], %xbuf[%sl{tag}, %tch, %c0, %rx_{j}, %tcol], "
              f"bytes {cb} if %in{tag} : {xt}, {xsm}")
        # Centroid rows past K clamp to the last one (the argmin's `valid` drops them).
        for j in range(bk // rows_per_pass):
            r = "%trow" if j == 0 else f"%rc{tag}_{j}"
            if j:
                w(f"{ind}{r} = arith.addi %trow, %c{rows_per_pass * j} : index")
            row_offset(ind, f"r{tag}_{j}", f"%k0{tag}", r, "%klast", "%bk0")
            w(f"{ind}%oc{tag}_{j} = arith.addi %or{tag}_{j}, %col{tag} : index")
            w(f"{ind}cake.cp_async %c[%oc{tag}_{j}], %cbuf[%sl{tag}, %tch, %c0, {r}, %tcol], "
              f"bytes {cb} if %in{tag} : {ct}, {csm}")
        # |c|^2 of the tile: one 4-byte copy per centroid.
        for j in range(max(1, bk // threads)):
            q = "%tid" if j == 0 else f"%q{tag}_{j}"
            if j:
                w(f"{ind}{q} = arith.addi %tid, %c{threads * j} : index")
            w(f"{ind}%qk{tag}_{j} = arith.addi %k0{tag}, {q} : index")
            copy = (f"cake.cp_async %csq[%b, %qk{tag}_{j}], %qbuf[%sl{tag}, {q}], bytes 4 masked : {qt}, {qsm}")
            if bk < threads:
                w(f"{ind}%qin{tag} = arith.cmpi ult, %tid, %c{bk} : index")
                w(f"{ind}scf.if %qin{tag} {{")
                w(f"{ind}  {copy}")
                w(f"{ind}}}")
            else:
                w(f"{ind}{copy}")

    # Prologue: stages 0 .. ahead - 1 in flight (a stage past the last is an empty group).
    for s in range(ahead):
        w(f"  %pin{s} = arith.cmpi ult, %c{s}, %total : index")
        w(f"  scf.if %pin{s} {{")
        issue("    ", f"%c{s}", f"p{s}")
        w("  }")
        w("  cake.cp_async.commit")
    w(f"  %zero = arith.constant dense<0.0> : {acc}")
    w("  %inf = arith.constant dense<0x7F800000> : vector<2xf32>")
    w("  %none = arith.constant dense<0> : vector<2xi32>")
    w("  %best:2 = scf.for %kt = %c0 to %ktiles step %c1 iter_args(%bv = %inf, %bi = %none)")
    w("      -> (vector<2xf32>, vector<2xi32>) {")
    w("    %it0 = arith.muli %kt, %groups : index")
    w(f"    %part = scf.for %g = %c0 to %groups step %c1 iter_args(%run = %zero) -> ({acc}) {{")
    w("      %it = arith.addi %it0, %g : index")
    w(f"      cake.cp_async.wait {ahead - 1}")
    w("      cake.fence.proxy_async")
    w("      cake.barrier")
    # Refill the slot consumed two steps ago (every warpgroup waited for that chain before the
    # barrier; the previous step's chain may still run).
    w(f"      %nx = arith.addi %it, %c{ahead} : index")
    w("      %nin = arith.cmpi ult, %nx, %total : index")
    w("      scf.if %nin {")
    issue("        ", "%nx", "n")
    w("      }")
    w("      cake.cp_async.commit")
    w(f"      %slot = arith.remui %it, %c{st} : index")
    w("      cake.wgmma.fence")
    out = _wgmma_chain(w, "      ", "%slot", "%slot", G, cw, kstep, xsm, csm, acc, "%run", "a")
    w("      cake.wgmma.commit")
    w("      cake.wgmma.wait 1")                 # this stage's chain runs on under the next refill
    w(f"      scf.yield {out} : {acc}")
    w("    }")
    w("    cake.wgmma.wait 0")
    # The tile's |c|^2 sits in the slot of its last stage, refilled only after the next barrier.
    w("    %itl = arith.addi %it0, %groups : index")
    w("    %itm = arith.subi %itl, %c1 : index")
    w(f"    %slotl = arith.remui %itm, %c{st} : index")
    w(f"    %k0 = arith.muli %kt, %c{bk} : index")
    w("    %valid = arith.subi %kdim, %k0 : index")
    w("    %v, %col = cake.wgmma.row_arg_reduce argmin %part, scale -2.0, valid %valid,")
    w(f"        %qbuf[%slotl, %c0] : {acc}, {qsm}")
    _fold(w, "    ")
    w("  %mrow = arith.addi %m0, %row : index")
    w("  cake.wgmma.store_rows %best#1, %idx[%b, %mrow] masked : vector<2xi32>, !cake.tensor<[B, N], i32>")
    w("  cake.return")
    w("}")
    return "\n".join(L) + "\n"
