#!/usr/bin/env python3
"""Session 37: the tune call's shapes and configurations for the split-K kernels: simt's `sk`
(the centroids of a point split over sk warps of a block) and tcd's `kw` (the centroid tiles of a
row tile split over kw warps), both merged through shared memory.

    python3 bench/results/2026-12-06-library-kmeans-17/split_plan.py

Every routing-table point (none is held out) with K >= 128 where a split configuration is legal
(their domains: few points): each legal split configuration of its dtype (64-bit index builds),
and the table's best, re-timed in the same call. K >= 128 keeps the call short (the device
refused starts that cost a sixth of the session's budget): with fewer centroids a warp walks at
most 4 steps of 32 and splitting them has little to gain.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "libraries", "runtime"))
from cake_library.route import Router  # noqa: E402

variants = json.load(open(os.path.join(ROOT, "libraries", "kmeans", "variants.json")))["variants"]
splits = [v for v in variants if v.get("index_bits", 64) == 64 and
          (v["params"].get("sk", 1) > 1 or v["params"].get("kw", 1) > 1)]
router = Router({"op": "kmeans_assign", "variants": splits, "table": {"points": []}})
table = json.load(open(os.path.join(ROOT, "libraries", "kmeans", "table.json")))["points"]
shapes, only = [], []
for t in table:
    if t["K"] < 128:
        continue
    try:
        legal = {v["config"] for v in router.legal(t["B"], t["N"], t["D"], t["K"], t["dtype"])}
    except ValueError:           # NoKernel: no split configuration serves it
        continue
    shape = {k: t[k] for k in ("B", "N", "D", "K", "dtype")}
    shapes.append(dict(shape, heldout=False))
    only.append(dict(shape, heldout=False, configs=sorted(legal | {min(t["ms"], key=t["ms"].get)})))
json.dump({"shapes": shapes}, open(os.path.join(HERE, "split-grid.json"), "w"), indent=0)
json.dump(only, open(os.path.join(HERE, "split-only.json"), "w"), indent=0)
print(len(shapes), "shapes,", sum(len(o["configs"]) for o in only), "pairs")
