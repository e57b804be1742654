"""Family `splitd` (sm_90a): any D with tensor cores. The D axis is streamed in groups of `g`
128-byte chunks: one pipeline stage holds a group of the point tile AND of the centroid tile
(and the tile's |c|^2), and the wgmma accumulator is carried across the groups; the last group
of each centroid tile is peeled so its stage stays alive for the argmin. One kernel serves every
D (the group count is ceildiv(D, g * chunk width) at run time); point tiles are re-read once per
centroid tile (from L2 in practice).
"""
from .common import DTYPES, SMEM_LIMIT, chunk_width
from .tma import (BK, _consumer_open, _fold, _producer_close, _producer_open, _store_and_close,
                  _tile_counts, _tma_kernel_head, _wgmma_chain, centroid_tile, centroid_tiles, csq_box,
                  split_k, split_k_suffix)


def splitd_name(p):
    return "km_{t}_sd{g}_k{bk}_w{wg}_s{st}_{gr}".format(
        t=DTYPES[p["dtype"]][0], gr=p["grid"][0], **p) + split_k_suffix(p)



def splitd_smem_bytes(p):
    el = DTYPES[p["dtype"]][1]
    cw = chunk_width(p["dtype"])
    return p["st"] * (p["g"] * (64 * p["wg"] + p["bk"]) * cw * el + csq_box(p["bk"]) * 4) + 1024


def splitd_legal(p):
    return (p["bk"] in BK and p["wg"] in (1, 2) and p["g"] >= 1 and p["st"] >= 2
            and splitd_smem_bytes(p) <= SMEM_LIMIT and p.get("ks", 1) >= 1)


def generate_splitd(p):
    if not splitd_legal(p):
        raise ValueError("illegal splitd variant %s" % p)
    ty, el, kstep = DTYPES[p["dtype"]]
    cw, G, bk, wg, st = chunk_width(p["dtype"]), p["g"], p["bk"], p["wg"], p["st"]
    bn = 64 * wg
    xsm = f"!cake.smem<{st}x{G}x1x{bn}x{cw}x{ty}, swizzle = 128>"
    csm = f"!cake.smem<{st}x{G}x1x{bk}x{cw}x{ty}, swizzle = 128>"
    qsm = f"!cake.smem<{st}x{csq_box(bk)}xf32>"
    pp = f"!cake.pipeline<{st}>"
    acc = f"vector<{bk // 2}xf32>"
    stage_bytes = G * (bn + bk) * cw * el + csq_box(bk) * 4
    consts = sorted({0, 1, 64, bn, bk, G * cw} | set(range(G)) | {cw * j for j in range(G)}
                    | {kstep * s for s in range(cw // kstep)})
    L = []
    w = L.append
    txt, tct, tqt = _tma_kernel_head(w, p, splitd_name(p), ty, bn, bk, cw, consts)
    ks, ntiles = split_k(p), centroid_tiles(p)
    _tile_counts(w, bk, bn, [
        "  %ddim = cake.problem_size \"D\"",
        f"  %groups = arith.ceildivui %ddim, %c{G * cw} : index",
        "  %last = arith.subi %groups, %c1 : index",
        f"  %per_tile = arith.muli {ntiles}, %groups : index"], ks)
    w(f"  %xbuf = cake.alloc_smem : {xsm}")
    w(f"  %cbuf = cake.alloc_smem : {csm}")
    w(f"  %qbuf = cake.alloc_smem : {qsm}")
    w(f"  %pipe = cake.pipeline.create consumers {128 * wg} : {pp}")
    _producer_open(w, bn, ks)
    w("            %kbase = arith.muli %b, %kpitch : index")
    w("            %i0 = arith.muli %i, %per_tile : index")
    w(f"            scf.for %kt = %c0 to {ntiles} step %c1 {{")
    centroid_tile(w, "              ", p)
    w("              %kflat = arith.addi %kbase, %k0 : index")
    w("              %kt0 = arith.muli %kt, %groups : index")
    w("              %g0 = arith.addi %i0, %kt0 : index")
    w("              scf.for %g = %c0 to %groups step %c1 {")
    w("                %it = arith.addi %g0, %g : index")
    w(f"                cake.pipeline.producer_acquire %pipe[%it] : {pp}")
    w(f"                cake.pipeline.producer_commit %pipe[%it], tx_bytes {stage_bytes} : {pp}")
    w(f"                %slot = cake.pipeline.slot %pipe[%it] : {pp}")
    w(f"                %d0 = arith.muli %g, %c{G * cw} : index")
    for j in range(G):
        w(f"                %col{j} = arith.addi %d0, %c{cw * j} : index")
        w(f"                cake.tma.load %tx[%b, %m0, %col{j}], %xbuf[%slot, %c{j}], %pipe[%it]")
        w(f"                    : {txt}, {xsm}, {pp}")
        w(f"                cake.tma.load %tc[%b, %k0, %col{j}], %cbuf[%slot, %c{j}], %pipe[%it]")
        w(f"                    : {tct}, {csm}, {pp}")
    w("                cake.tma.load %tcsq[%kflat], %qbuf[%slot], %pipe[%it]")
    w(f"                    : {tqt}, {qsm}, {pp}")
    w("              }")
    w("            }")
    _producer_close(w)
    _consumer_open(w, wg, bn, acc, ks)
    w("        %i0 = arith.muli %i, %per_tile : index")
    w(f"        %best:2 = scf.for %kt = %c0 to {ntiles} step %c1 iter_args(%bv = %inf, %bi = %none)")
    w("            -> (vector<2xf32>, vector<2xi32>) {")
    w("          %kt0 = arith.muli %kt, %groups : index")
    w("          %g0 = arith.addi %i0, %kt0 : index")
    w(f"          %part = scf.for %g = %c0 to %last step %c1 iter_args(%run = %zero) -> ({acc}) {{")
    w("            %it = arith.addi %g0, %g : index")
    w(f"            cake.pipeline.consumer_wait %pipe[%it] : {pp}")
    w(f"            %slot = cake.pipeline.slot %pipe[%it] : {pp}")
    w("            cake.wgmma.fence")
    out = _wgmma_chain(w, "            ", "%slot", "%slot", G, cw, kstep, xsm, csm, acc, "%run", "a")
    w("            cake.wgmma.commit")
    w("            cake.wgmma.wait 0")
    w(f"            cake.pipeline.consumer_release %pipe[%it] : {pp}")
    w(f"            scf.yield {out} : {acc}")
    w("          }")
    # The last group is peeled: its stage (and the tile's |c|^2 in it) stays until the argmin.
    w("          %itl = arith.addi %g0, %last : index")
    w(f"          cake.pipeline.consumer_wait %pipe[%itl] : {pp}")
    w(f"          %slotl = cake.pipeline.slot %pipe[%itl] : {pp}")
    w("          cake.wgmma.fence")
    last = _wgmma_chain(w, "          ", "%slotl", "%slotl", G, cw, kstep, xsm, csm, acc, "%part", "l")
    w("          cake.wgmma.commit")
    w("          cake.wgmma.wait 0")
    centroid_tile(w, "          ", p)
    w("          %valid = arith.subi %kdim, %k0 : index")
    w(f"          %v, %col = cake.wgmma.row_arg_reduce argmin {last}, scale -2.0, valid %valid,")
    w(f"              %qbuf[%slotl, %c0] : {acc}, {qsm}")
    w(f"          cake.pipeline.consumer_release %pipe[%itl] : {pp}")
    _fold(w)
    _store_and_close(w, ks=ks)
    return "\n".join(L) + "\n"
