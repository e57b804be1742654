#!/usr/bin/env python3
"""Session 36: the tune call's shapes and configurations for tcd's `pf` (the D loop pipelined by
one step).

    python3 bench/results/2026-12-05-library-kmeans-16/pf_plan.py

Every routing-table point (none is held out) where a tcd configuration without hx, cs or fl is
among the table's three fastest: each such configuration and its `pf` form (same index width
and precision), re-timed in the same call, and the table's best.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "libraries", "kmeans"))
import build  # noqa: E402

variants = json.load(open(os.path.join(ROOT, "libraries", "kmeans", "variants.json")))["variants"]
params = {v["config"]: dict(v["params"], index_bits=v.get("index_bits", 64)) for v in variants}
table = json.load(open(os.path.join(ROOT, "libraries", "kmeans", "table.json")))["points"]
shapes, only = [], []
for t in table:
    ranked = sorted(t["ms"], key=t["ms"].get)
    cfgs = set()
    for c in ranked[:3]:
        p = params.get(c)
        if not p or build.family_of(p) != "tcd" or any(p.get(k) for k in ("hx", "cs", "fl", "pf")):
            continue
        cfgs |= {c, build.config_name(dict(p, pf=1))}
    if not cfgs:
        continue
    shape = {k: t[k] for k in ("B", "N", "D", "K", "dtype")}
    shapes.append(dict(shape, heldout=False))
    only.append(dict(shape, heldout=False, configs=sorted(cfgs | {ranked[0]})))
json.dump({"shapes": shapes}, open(os.path.join(HERE, "pf-grid.json"), "w"), indent=0)
json.dump(only, open(os.path.join(HERE, "pf-only.json"), "w"), indent=0)
print(len(shapes), "shapes,", sum(len(o["configs"]) for o in only), "pairs")
