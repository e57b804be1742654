#!/usr/bin/env python3
"""Session 37: the tune call's shapes and configurations for simt's split-K kernels (`sk`: the
centroids of a point split over sk warps of a block, merged through shared memory).

    python3 bench/results/2026-12-06-library-kmeans-17/sk_plan.py

Every routing-table point (none is held out) inside the split kernels' domain (SIMT_SPLIT_DOMAIN:
few points, little work): each split configuration of its dtype (64-bit index builds), and the
table's best, re-timed in the same call.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "libraries", "kmeans"))
sys.path.insert(0, os.path.join(ROOT, "libraries", "runtime"))
from cake_library import expr  # noqa: E402
from families.simt import SIMT_SPLIT_DOMAIN  # noqa: E402

variants = json.load(open(os.path.join(ROOT, "libraries", "kmeans", "variants.json")))["variants"]
splits = {}
for v in variants:
    if v["family"] == "simt" and v["params"].get("sk") and v.get("index_bits", 64) == 64:
        splits.setdefault(v["dtype"], set()).add(v["config"])
table = json.load(open(os.path.join(ROOT, "libraries", "kmeans", "table.json")))["points"]
shapes, only = [], []
for t in table:
    sizes = {k: t[k] for k in ("B", "N", "D", "K")}
    if not t["ms"] or not all(expr.evaluate(c, sizes) for c in SIMT_SPLIT_DOMAIN):
        continue
    shape = dict(sizes, dtype=t["dtype"])
    shapes.append(dict(shape, heldout=False))
    only.append(dict(shape, heldout=False, configs=sorted(splits[t["dtype"]] | {min(t["ms"], key=t["ms"].get)})))
json.dump({"shapes": shapes}, open(os.path.join(HERE, "sk-grid.json"), "w"), indent=0)
json.dump(only, open(os.path.join(HERE, "sk-only.json"), "w"), indent=0)
print(len(shapes), "shapes,", sum(len(o["configs"]) for o in only), "pairs")
