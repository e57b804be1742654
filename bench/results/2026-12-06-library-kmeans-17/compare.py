#!/usr/bin/env python3
"""Build 17's final (369 of the 420 grid shapes: the call hit its time limit) against build 15's
rows of record on the same shapes; both on an H100, each with its anchors from its own call.

    python3 bench/results/2026-12-06-library-kmeans-17/compare.py
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
new = json.load(open(os.path.join(HERE, "final-b17-0.json")))
old = json.load(open(os.path.join(HERE, "..", "2026-12-05-library-kmeans-14", "rows.json")))
key = lambda r: (r["dtype"], r["B"], r["N"], r["D"], r["K"])  # noqa: E731
before = {key(r): r for r in old}


def gm(v):
    return math.exp(sum(map(math.log, v)) / len(v))


for part, pick in (("all", lambda r: True), ("tuned", lambda r: r["tuned"]), ("held-out", lambda r: not r["tuned"])):
    rows = [r for r in new if pick(r)]
    b = [before[key(r)] for r in rows]
    print(f"{part:9s} {len(rows):3d} shapes: flashlib {gm([r['speedup_flashlib'] for r in rows]):.3f} "
          f"(build 15 {gm([r['speedup_flashlib'] for r in b]):.3f}), flash-kmeans "
          f"{gm([r['speedup_flash_kmeans'] for r in rows]):.3f} (build 15 {gm([r['speedup_flash_kmeans'] for r in b]):.3f}), "
          f"below 1.0x vs either {sum(1 for r in rows if min(r['speedup_flashlib'], r['speedup_flash_kmeans']) < 1)} "
          f"(build 15 {sum(1 for r in b if min(r['speedup_flashlib'], r['speedup_flash_kmeans']) < 1)})")
split = [r for r in new if "_sk" in r["kernel"] or "_kw" in r["kernel"]]
print(f"split-K kernels served {len(split)} rows: flashlib {gm([r['speedup_flashlib'] for r in split]):.3f} "
      f"(build 15 {gm([before[key(r)]['speedup_flashlib'] for r in split]):.3f}), cake time build 15 / 17 "
      f"{gm([before[key(r)]['cake_ms'] / r['cake_ms'] for r in split]):.3f}")
