#!/usr/bin/env python3
"""Session 36: the tune call's shapes and configurations for the resident-centroid tcd kernels
with the new tiles (kn 5, 7, 9; two row tiles per warp).

    python3 bench/results/2026-12-05-library-kmeans-16/cs_plan.py

Every routing-table point (none is held out) with K <= 128, D <= 256 and a D the widest x load
does not divide (call 1 of kmeans-15: cs won only where the other tcd kernels read x in narrow
loads) gets the configurations that serve it most tightly: the smallest kn with 8 kn >= K, the
smallest D class >= D, one and (kn <= 8) two row tiles, one row tile with x prefetched a step
ahead (pf), each of the 2-4 blocks per SM, both
index widths (and fp32's both precisions). Each also gets the table's best configuration and
its best cs one where it has one, for a same-call comparison.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "libraries", "kmeans"))
import build  # noqa: E402
import family  # noqa: E402
from families.tcd import (TCD_CS_BLOCKS_PER_SM, TCD_CS_CLASSES, TCD_CS_KN, TCD_CS_ROW_TILES,  # noqa: E402
                          tcd_resident_fits)

table = json.load(open(os.path.join(ROOT, "libraries", "kmeans", "table.json")))["points"]
shapes, only = [], []
for t in table:
    d = t["dtype"]
    span = family.tcd_span(d)
    if t["K"] > 128 or t["D"] > 256 or t["D"] % span == 0:
        continue
    kn = min(k for k in TCD_CS_KN if 8 * k >= t["K"])
    cs = min(c for c in TCD_CS_CLASSES if c >= t["D"])
    if not tcd_resident_fits(d, 8 * kn, cs):
        continue
    v = max(x for x in (1, 2, span) if t["D"] % x == 0)
    cfgs = []
    forms = [(r, 0) for r, most in sorted(TCD_CS_ROW_TILES.items()) if kn <= most] + [(1, 1)]
    for r, pf in forms:
        for pg in TCD_CS_BLOCKS_PER_SM:
            for tf in ((0, 1) if d == "float32" else (0,)):
                for bits in (64, 32):
                    p = {"dtype": d, "r": r, "kn": kn, "v": v, "cs": cs, "pg": pg}
                    if pf:
                        p["pf"] = 1
                    if tf:
                        p["tf"] = 1
                    if bits == 32:
                        p["index_bits"] = 32
                    cfgs.append(build.config_name(p))
    ranked = sorted(t["ms"], key=t["ms"].get)
    extra = [ranked[0]] + [c for c in ranked if "_cs_" in c][:1]
    shape = {k: t[k] for k in ("B", "N", "D", "K", "dtype")}
    shapes.append(dict(shape, heldout=False))
    only.append(dict(shape, heldout=False, configs=sorted(set(cfgs + extra))))
json.dump({"shapes": shapes}, open(os.path.join(HERE, "cs-grid.json"), "w"), indent=0)
json.dump(only, open(os.path.join(HERE, "cs-only.json"), "w"), indent=0)
print(len(shapes), "shapes,", sum(len(o["configs"]) for o in only), "pairs")
