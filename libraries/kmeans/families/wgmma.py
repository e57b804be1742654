"""Family `wgmma` (sm_90a, fp16 / bf16 / fp32 read as tf32): the structure of examples/kmeans_hopper.mlir
with every shape decision turned into a parameter. D is a run-time symbol; the kernel holds a D
*class* of `chunks` 128-byte-wide column chunks (64 fp16/bf16 or 32 fp32 values each) and serves
every D up to chunks * chunk width. TMA zero-fills the columns past D, the rows past N and K, so
ragged N, K and D need no code. One producer warp streams point tiles (`wg` consumer warpgroups x
64 points, `xs` stages) and centroid tiles (`bk` centroids with their |c|^2, `cs` stages) through
mbarrier pipelines; the consumers run wgmma and fold each centroid tile into a running argmin.
`grid` is "persistent" (132 blocks loop over the point tiles) or "tiles" (one block per tile, for
small problems: no idle prologue, no imbalance).

What the host must give (the dispatcher does it, users never see it):
- D a multiple of 8 (fp16/bf16) or 4 (fp32): TMA needs 16-byte row strides. Other D are served
  from a zero-padded copy of x and c (the dispatcher's `pad_d` step, counted in its timings).
- csq is read as one flat vector of B rows of KP values (BKP = B * KP): batch b's |c|^2 starts at
  b * KP. A TMA copy must start 16-byte aligned (measured on the H200: a 1-D copy at an f32 offset
  that is not a multiple of 4 faults with an illegal instruction), so KP is K when B = 1 or K is a
  multiple of 4, and K rounded up to 4 otherwise (the dispatcher then copies |c|^2 into rows of
  KP). A tile may run into the next row, which the argmin ignores (columns past K).

`tail` (optional, 1 .. steps per chunk - 1) trims the last chunk to its first `tail` wgmma k-steps:
the variant serves D up to (chunks - 1) * chunk width + tail * k-step (D = 401 in bf16 runs 26 k16
steps instead of 28). TMA still fills the whole last chunk (zeros past D, no extra bytes read); only
the tensor-core work shrinks, which is what bounds the large-K shapes. Its configuration is the full
variant's: the router serves each configuration from its narrowest D class that covers D.

`ra` (optional, true) keeps each consumer warp's 16 rows of the point tile in registers: after the
point stage lands, ldmatrix copies every k-step's A fragment out (16 registers per column chunk),
the stage goes back to the producer at once (it loads the next tile under this one's centroid
loop), and every centroid tile runs `cake.wgmma.regs` (B alone from shared memory). With A from
shared memory an m64n64k16 step reads 4 KB in 32 tensor-core cycles, the SM's whole 128 B/clk:
the wide-D tiles (bk 64, forced by their shared-memory footprint) were bound there.

`ov` (optional, true) overlaps the argmin of one centroid tile with the wgmma chain of the next:
the consumers take the tiles in pairs, issue both chains into two accumulators, and reduce the
first after `wgmma.wait 1` while the second runs (the producer loads an even number of tiles; a
last tile past K is TMA's zero fill, and its argmin finds no valid column). Two accumulators:
bk <= 128.

Each variant is one kernel; `name(params)` is its symbol and file name.
"""
from .common import DTYPES, SMEM_LIMIT, chunk_width
from .tma import (BK, _consumer_open, _fold, _fold_step, _producer_close, _producer_open, _store_and_close,
                  _tile_counts, _tma_kernel_head, _wgmma_chain, centroid_tile, centroid_tiles, csq_box,
                  split_k, split_k_domain, split_k_suffix)


def name(p):
    return "km_{t}_c{chunks}{q}_k{bk}_w{wg}_x{xs}_s{cs}_{g}".format(
        t=DTYPES[p["dtype"]][0], g=p["grid"][0], q="q%d" % p["tail"] if "tail" in p else "",
        **p) + mode_suffix(p)


def mode_suffix(p):
    return ("_ra" if p.get("ra") else "") + ("_ov" if p.get("ov") else "") + split_k_suffix(p)


# Registers a consumer thread may give to A fragments and accumulators with `ra` or `ov`: at two
# consumer warpgroups (168 registers a thread) ptxas fits every variant up to 140 without
# spilling and bk 256 over one whole chunk (144) with a 16-byte spill; bk 256 over two chunks
# (160) spills 28 bytes even at one warpgroup's 255 registers.
TILE_REGS = 144


def tile_registers(p):
    """A fragments (4 registers per k-step, 4 k-steps per chunk; none without `ra`) plus the
    bk / 2 accumulator (two with `ov`)."""
    steps = (p["chunks"] - 1) * steps_per_chunk(p["dtype"]) + p.get("tail", steps_per_chunk(p["dtype"]))
    return (4 * steps if p.get("ra") else 0) + (2 if p.get("ov") else 1) * p["bk"] // 2


def steps_per_chunk(dtype):
    return chunk_width(dtype) // DTYPES[dtype][2]


def smem_bytes(p):
    el = DTYPES[p["dtype"]][1]
    x = p["xs"] * p["chunks"] * 64 * p["wg"] * chunk_width(p["dtype"]) * el
    c = p["cs"] * (p["chunks"] * p["bk"] * chunk_width(p["dtype"]) * el + csq_box(p["bk"]) * 4)
    return x + c + 1024   # barriers and alignment


def legal(p):
    """Whether the variant fits the hardware (shared memory, registers, wgmma shapes). Three
    consumer warpgroups get 152 registers a thread: no room for `ra` fragments or `ov`'s second
    accumulator (TILE_REGS is measured at two)."""
    return (p["bk"] in BK and p["wg"] in (1, 2, 3) and p["xs"] >= 1 and p["cs"] >= 2
            and 1 <= p.get("tail", 1) < steps_per_chunk(p["dtype"]) and smem_bytes(p) <= SMEM_LIMIT
            and (not (p.get("ra") or p.get("ov")) or (tile_registers(p) <= TILE_REGS and p["wg"] < 3))
            and (not split_k(p) or (p["ks"] >= 1 and not (p.get("ra") or p.get("ov")))))


def max_d(p):
    """The widest D the variant serves: its chunks, the last one cut to `tail` k-steps."""
    last = p.get("tail", steps_per_chunk(p["dtype"])) * DTYPES[p["dtype"]][2]
    return (p["chunks"] - 1) * chunk_width(p["dtype"]) + last


def wgmma_table_only(p):
    """`ra`, `ov` and three-warpgroup variants serve only the table points that measured them
    (route.py). `ra`: tuned at the 62 points where a wgmma tile was among the three fastest and at
    six large probes, they were the fastest at 14 (1.02-1.10x, the most on D = 256: bf16 B1
    N262144 K8192 659 TFLOP/s against 640, fp16 B1 N524288 K4096 676 against 612) and 0.62-0.8x on
    small problems, where the fragment prologue of every point tile costs more than the
    shared-memory reads it saves (bench/results/2026-12-06-library-kmeans-18). Judged by
    neighbours, their sparse measurements routed tiny held-out shapes to them. Three consumer
    warpgroups (wg 3) were tuned on the same kind of sparse sample: the fp16/bf16 points whose
    fastest configuration was a wgmma tile (bench/results/2026-12-07-wgmma-w3)."""
    return bool(p.get("ra") or p.get("ov") or p["wg"] == 3)


def wgmma_domain(p):
    """A trimmed variant computes nothing past its D class: the router (and the dispatcher)
    must never give it a wider D, though its TMA boxes would take one. Split-K variants: tma.py's
    split_k_domain."""
    return ([f"D <= {max_d(p)}"] if "tail" in p else []) + split_k_domain(p)


def generate(p):
    """CAKE IR text of one variant."""
    if not legal(p):
        raise ValueError("illegal variant %s" % p)
    ty, el, kstep = DTYPES[p["dtype"]]
    cw, nch, bk, wg, xs, cs = chunk_width(p["dtype"]), p["chunks"], p["bk"], p["wg"], p["xs"], p["cs"]
    bn = 64 * wg
    xsm = f"!cake.smem<{xs}x{nch}x1x{bn}x{cw}x{ty}, swizzle = 128>"
    csm = f"!cake.smem<{cs}x{nch}x1x{bk}x{cw}x{ty}, swizzle = 128>"
    qsm = f"!cake.smem<{cs}x{csq_box(bk)}xf32>"
    xp, cp = f"!cake.pipeline<{xs}>", f"!cake.pipeline<{cs}>"
    acc = f"vector<{bk // 2}xf32>"
    xbytes = nch * bn * cw * el
    cbytes = nch * bk * cw * el + csq_box(bk) * 4
    consts = sorted({0, 1, 64, bn, bk} | set(range(nch)) | {cw * j for j in range(nch)}
                    | {kstep * s for s in range(cw // kstep)}
                    | ({2, 4, 8, 16, kstep // 2} if p.get("ra") else set())
                    | ({2} if p.get("ov") else set()))
    L = []
    w = L.append
    txt, tct, tqt = _tma_kernel_head(w, p, name(p), ty, bn, bk, cw, consts)
    ov = bool(p.get("ov"))
    # `ov`: tiles in pairs, so the producer loads an even count (the last may lie past K).
    ks = split_k(p)
    ntiles = "%ktiles_ev" if ov else centroid_tiles(p)
    _tile_counts(w, bk, bn, ["  %kt_pairs = arith.ceildivui %ktiles, %c2 : index",
                             "  %ktiles_ev = arith.muli %kt_pairs, %c2 : index"] if ov else (), ks)
    w(f"  %xbuf = cake.alloc_smem : {xsm}")
    w(f"  %cbuf = cake.alloc_smem : {csm}")
    w(f"  %csqbuf = cake.alloc_smem : {qsm}")
    w(f"  %xpipe = cake.pipeline.create consumers {128 * wg} : {xp}")
    w(f"  %cpipe = cake.pipeline.create consumers {128 * wg} : {cp}")
    _producer_open(w, bn, ks)
    w(f"            cake.pipeline.producer_acquire %xpipe[%i] : {xp}")
    w(f"            cake.pipeline.producer_commit %xpipe[%i], tx_bytes {xbytes} : {xp}")
    w(f"            %xslot = cake.pipeline.slot %xpipe[%i] : {xp}")
    for j in range(nch):
        w(f"            cake.tma.load %tx[%b, %m0, %c{cw * j}], %xbuf[%xslot, %c{j}], %xpipe[%i]")
        w(f"                : {txt}, {xsm}, {xp}")
    w(f"            %it0 = arith.muli %i, {ntiles} : index")
    w("            %kbase = arith.muli %b, %kpitch : index")
    w(f"            scf.for %kt = %c0 to {ntiles} step %c1 {{")
    w("              %it = arith.addi %it0, %kt : index")
    w(f"              cake.pipeline.producer_acquire %cpipe[%it] : {cp}")
    w(f"              cake.pipeline.producer_commit %cpipe[%it], tx_bytes {cbytes} : {cp}")
    w(f"              %cslot = cake.pipeline.slot %cpipe[%it] : {cp}")
    centroid_tile(w, "              ", p)
    for j in range(nch):
        w(f"              cake.tma.load %tc[%b, %k0, %c{cw * j}], %cbuf[%cslot, %c{j}], %cpipe[%it]")
        w(f"                  : {tct}, {csm}, {cp}")
    w("              %kflat = arith.addi %kbase, %k0 : index")
    w("              cake.tma.load %tcsq[%kflat], %csqbuf[%cslot], %cpipe[%it]")
    w(f"                  : {tqt}, {qsm}, {cp}")
    w("            }")
    _producer_close(w)
    _consumer_open(w, wg, bn, acc, ks)
    w(f"        cake.pipeline.consumer_wait %xpipe[%i] : {xp}")
    w(f"        %xslot = cake.pipeline.slot %xpipe[%i] : {xp}")
    frags = _load_a_fragments(w, p, xsm, xp) if p.get("ra") else None
    w(f"        %it0 = arith.muli %i, {ntiles} : index")
    if ov:
        _overlapped_tiles(w, p, xsm, csm, qsm, cp, acc, frags)
    else:
        w(f"        %best:2 = scf.for %kt = %c0 to {ntiles} step %c1 iter_args(%bv = %inf, %bi = %none)")
        w("            -> (vector<2xf32>, vector<2xi32>) {")
        w("          %it = arith.addi %it0, %kt : index")
        w(f"          cake.pipeline.consumer_wait %cpipe[%it] : {cp}")
        w(f"          %cslot = cake.pipeline.slot %cpipe[%it] : {cp}")
        w("          cake.wgmma.fence")
        last = _wgmma_chain(w, "          ", "%xslot", "%cslot", nch, cw, kstep, xsm, csm, acc, "%zero",
                            "a", p.get("tail"), frags)
        w("          cake.wgmma.commit")
        w("          cake.wgmma.wait 0")
        centroid_tile(w, "          ", p)
        w("          %valid = arith.subi %kdim, %k0 : index")
        w(f"          %v, %col = cake.wgmma.row_arg_reduce argmin {last}, scale -2.0, valid %valid,")
        w(f"              %csqbuf[%cslot, %c0] : {acc}, {qsm}")
        w(f"          cake.pipeline.consumer_release %cpipe[%it] : {cp}")
        _fold(w)
    _store_and_close(w, [] if frags else [f"        cake.pipeline.consumer_release %xpipe[%i] : {xp}"], ks)
    return "\n".join(L) + "\n"


def _overlapped_tiles(w, p, xsm, csm, qsm, cp, acc, frags):
    """`ov`: the loop over pairs of centroid tiles; both chains issued, the first reduced while
    the second runs (wgmma.wait 1), then the second. Leaves %best#0/1 as the plain loop does."""
    _, _, kstep = DTYPES[p["dtype"]]
    cw, nch, bk = chunk_width(p["dtype"]), p["chunks"], p["bk"]
    ind = "          "
    w("        %best:2 = scf.for %q = %c0 to %kt_pairs step %c1 iter_args(%bv = %inf, %bi = %none)")
    w("            -> (vector<2xf32>, vector<2xi32>) {")
    w(f"{ind}%kta = arith.muli %q, %c2 : index")
    w(f"{ind}%ktb = arith.addi %kta, %c1 : index")
    last = {}
    for h in ("a", "b"):
        w(f"{ind}%it{h} = arith.addi %it0, %kt{h} : index")
        w(f"{ind}cake.pipeline.consumer_wait %cpipe[%it{h}] : {cp}")
        w(f"{ind}%cslot{h} = cake.pipeline.slot %cpipe[%it{h}] : {cp}")
        w(f"{ind}cake.wgmma.fence")
        last[h] = _wgmma_chain(w, ind, "%xslot", f"%cslot{h}", nch, cw, kstep, xsm, csm, acc, "%zero",
                               "p" + h, p.get("tail"), frags)
        w(f"{ind}cake.wgmma.commit")
    best = ("%bv", "%bi")
    for h, pending in (("a", 1), ("b", 0)):
        w(f"{ind}cake.wgmma.wait {pending}")
        w(f"{ind}%k0{h} = arith.muli %kt{h}, %c{bk} : index")
        w(f"{ind}%valid{h} = arith.subi %kdim, %k0{h} : index")
        w(f"{ind}%v{h}, %col{h} = cake.wgmma.row_arg_reduce argmin {last[h]}, scale -2.0, valid %valid{h},")
        w(f"{ind}    %csqbuf[%cslot{h}, %c0] : {acc}, {qsm}")
        w(f"{ind}cake.pipeline.consumer_release %cpipe[%it{h}] : {cp}")
        best = _fold_step(w, ind, best, h)
    w(f"{ind}scf.yield {best[0]}, {best[1]} : vector<2xf32>, vector<2xi32>")
    w("        }")


def _load_a_fragments(w, p, xsm, xp):
    """`ra`: every k-step's A fragment of this warp's 16 rows, by ldmatrix.x4 (lane l passes row
    l % 8 + 8 ((l / 8) % 2) of the warp's rows and column k0 + (kstep / 2) (l / 16): the mma.sync /
    wgmma register layout, for tf32 too), then the point stage is released. Returns
    {(chunk, step): (name, type)}."""
    ty, _, kstep = DTYPES[p["dtype"]]
    cw, nch = chunk_width(p["dtype"]), p["chunks"]
    ft = f"vector<{8 if kstep == 16 else 4}x{ty}>"
    ind = "        "
    for line in ("%fwarp = cake.warp_id", "%fw4 = arith.remui %fwarp, %c4 : index",
                 "%fw16 = arith.muli %fw4, %c16 : index", "%flane = cake.lane_id",
                 "%fl8 = arith.remui %flane, %c8 : index", "%flq = arith.divui %flane, %c8 : index",
                 "%flq2 = arith.remui %flq, %c2 : index", "%flr = arith.muli %flq2, %c8 : index",
                 "%flc = arith.divui %flane, %c16 : index",
                 f"%flcol = arith.muli %flc, %c{kstep // 2} : index",
                 "%frow0 = arith.addi %row, %fw16 : index", "%frow1 = arith.addi %frow0, %fl8 : index",
                 "%frow = arith.addi %frow1, %flr : index"):
        w(ind + line)
    frags = {}
    for j in range(nch):
        steps = p["tail"] if "tail" in p and j == nch - 1 else cw // kstep
        for s in range(steps):
            w(f"{ind}%fcol{j}_{s} = arith.addi %flcol, %c{kstep * s} : index")
            w(f"{ind}%fa{j}_{s} = cake.ldmatrix %xbuf[%xslot, %c{j}, %c0, %frow, %fcol{j}_{s}] : {xsm} -> {ft}")
            frags[(j, s)] = (f"%fa{j}_{s}", ft)
    w(f"{ind}cake.pipeline.consumer_release %xpipe[%i] : {xp}")
    return frags
