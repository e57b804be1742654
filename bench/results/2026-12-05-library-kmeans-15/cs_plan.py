#!/usr/bin/env python3
"""Session 35: the tune call's shapes and configurations for the persistent tcd `cs` kernels.

    python3 bench/results/2026-12-05-library-kmeans-15/cs_plan.py

Every routing-table point (none is held out) with K <= 128 and D <= 256 gets the one-pass cs
configurations that serve it most tightly: the smallest kn with 8 kn >= K, the smallest D class
>= D, the widest x load dividing D, each of the 2-4 blocks per SM, both index widths (and fp32's
both precisions). Points with 128 < K <= 768 and D of one step get the several-pass ones (hx,
the smallest ck >= K, kn 4 and 8). Each also gets the table's best configuration, for a
same-call comparison.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "libraries", "kmeans"))
import build  # noqa: E402
import family  # noqa: E402
from families.tcd import (TCD_CS_BLOCKS_PER_SM, TCD_CS_CLASSES, TCD_CS_HX_ROWS, TCD_CS_KN,  # noqa: E402
                          tcd_resident_fits)

table = json.load(open(os.path.join(ROOT, "libraries", "kmeans", "table.json")))["points"]
shapes, only = [], []
for t in table:
    d = t["dtype"]
    step = 4 * family.tcd_span(d)
    if t["K"] <= 128 and t["D"] <= 256:
        kn = min(k for k in TCD_CS_KN if 8 * k >= t["K"])
        cs = min(c for c in TCD_CS_CLASSES if c >= t["D"])
        bases = [{"kn": kn, "cs": cs}] if tcd_resident_fits(d, 8 * kn, cs) else []
    elif t["K"] <= max(TCD_CS_HX_ROWS) and t["D"] <= step:
        ck = min(c for c in TCD_CS_HX_ROWS if c >= t["K"])
        bases = [{"kn": kn, "cs": step, "ck": ck, "hx": 1} for kn in (4, 8)]
    else:
        continue
    if not bases:
        continue
    v = max(x for x in {1, 2, family.tcd_span(d)} if t["D"] % x == 0)
    cfgs = []
    for base, pg in [(b, pg) for b in bases for pg in TCD_CS_BLOCKS_PER_SM]:
        for tf in ((0, 1) if d == "float32" else (0,)):
            for bits in (64, 32):
                p = dict({"dtype": d, "r": 1, "v": v, "pg": pg}, **base)
                if tf:
                    p["tf"] = 1
                if bits == 32:
                    p["index_bits"] = 32
                cfgs.append(build.config_name(p))
    best = min(t["ms"], key=t["ms"].get)
    shape = {k: t[k] for k in ("B", "N", "D", "K", "dtype")}
    shapes.append(dict(shape, heldout=False))
    only.append(dict(shape, heldout=False, configs=cfgs + [best]))
json.dump({"shapes": shapes}, open(os.path.join(HERE, "cs-grid.json"), "w"), indent=0)
json.dump(only, open(os.path.join(HERE, "cs-only.json"), "w"), indent=0)
print(len(shapes), "shapes,", sum(len(o["configs"]) for o in only), "pairs")
