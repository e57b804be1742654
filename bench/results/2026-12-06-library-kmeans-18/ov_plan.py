#!/usr/bin/env python3
"""Session 38: the tune call's shapes and configurations for the wgmma family's `ov` variants
(centroid tiles in pairs, a tile's argmin under the next tile's wgmma chain; wgmma.py).

    python3 bench/results/2026-12-06-library-kmeans-18/ov_plan.py

The shapes of ra_plan.py (table points whose three fastest include a wgmma configuration, with
at least 10 MFLOP of work: below it no tile loop is long enough to overlap anything, and the
six large probes): each legal `ov` configuration (both index widths), and the point's three
fastest of the merged table (call 2's `ra` included), re-timed in the same call.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "libraries", "runtime"))
from cake_library.route import Router  # noqa: E402

variants = json.load(open(os.path.join(ROOT, "libraries", "kmeans", "variants.json")))["variants"]
table = {(t["dtype"], t["B"], t["N"], t["D"], t["K"]): t
         for t in json.load(open(os.path.join(ROOT, "libraries", "kmeans", "table.json")))["points"]}
router = Router({"op": "kmeans_assign", "variants": variants, "table": {"points": []}},
                variants_checked=True)
shapes, only = [], []
for s in json.load(open(os.path.join(HERE, "ra-grid.json")))["shapes"]:
    if 2 * s["B"] * s["N"] * s["K"] * s["D"] < 1e7:
        continue
    ov = {v["config"] for v in router.legal(s["B"], s["N"], s["D"], s["K"], s["dtype"])
          if v["config"].endswith(("_ov", "_ov_i32"))}
    if not ov:
        continue
    t = table[(s["dtype"], s["B"], s["N"], s["D"], s["K"])]
    shapes.append(s)
    only.append(dict(s, configs=sorted(ov | set(sorted(t["ms"], key=t["ms"].get)[:3]))))
json.dump({"shapes": shapes}, open(os.path.join(HERE, "ov-grid.json"), "w"), indent=0)
json.dump(only, open(os.path.join(HERE, "ov-only.json"), "w"), indent=0)
print(len(shapes), "shapes,", sum(len(o["configs"]) for o in only), "pairs")
