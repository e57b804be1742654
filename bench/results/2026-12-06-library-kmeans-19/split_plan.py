#!/usr/bin/env python3
"""Session 39: the tune call's shapes and configurations for the split-K variants (wgmma and
splitd with `ks`: libraries/kmeans/families/tma.py's split_k).

    python3 bench/results/2026-12-06-library-kmeans-19/split_plan.py [--only-configs A,B] [--top N] [--tag T]

(call 1: no options; call 4: --only-configs k32_w1_t_ks1,sd1_k64_w1_t_ks1,sd2_k64_w1_t_ks1 --top 3
--tag split2, the narrower split-K tiles added after call 1, against the table of build 19.)

- Every routing-table point (the grid's tuned shapes; none held out) where a split-K
  configuration is legal (their domain: at most 66 point tiles of 64, K above one centroid
  tile): every legal split-K configuration (both index widths) and the point's five fastest
  configurations in the table, re-timed in the same call (the pairing, and merge_tune's
  rescaling).
- Probe shapes in no grid (few points, many centroids, D from 64 to 3000, all dtypes): the same
  split-K configurations and the configuration the current table routes them to.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "libraries", "runtime"))
from cake_library.route import Router  # noqa: E402

PROBES = [(1, 50, 3000, 20000, "bfloat16"), (2, 17, 700, 9000, "float32"),
          (1, 200, 128, 65536, "float16"), (3, 9, 96, 30000, "bfloat16"),
          (1, 1000, 512, 16384, "float16"), (4, 100, 1500, 3000, "float16")]

import argparse  # noqa: E402
ap = argparse.ArgumentParser()
ap.add_argument("--only-configs", default="", help="split-K configurations to tune (and their _i32 twins)")
ap.add_argument("--top", type=int, default=5, help="the table's fastest configurations re-timed per point")
ap.add_argument("--tag", default="split")
args = ap.parse_args()
wanted = {c for c in args.only_configs.split(",") if c}
wanted |= {c + "_i32" for c in wanted}
variants = json.load(open(os.path.join(ROOT, "libraries", "kmeans", "variants.json")))["variants"]
table = json.load(open(os.path.join(ROOT, "libraries", "kmeans", "table.json")))
router = Router({"op": "kmeans_assign", "variants": variants, "table": {"points": []}},
                variants_checked=True)
routed = Router({"op": "kmeans_assign", "variants": variants, "table": table}, variants_checked=True)


def split_configs(s):
    return {v["config"] for v in router.legal(s["B"], s["N"], s["D"], s["K"], s["dtype"])
            if "_ks" in v["config"] and (not wanted or v["config"] in wanted)}


shapes, only = [], []
for t in table["points"]:
    s = {k: t[k] for k in ("B", "N", "D", "K", "dtype")}
    split = split_configs(s)
    if split:
        top = sorted(t["ms"], key=t["ms"].get)[:args.top]
        shapes.append(dict(s, heldout=False))
        only.append(dict(s, heldout=False, configs=sorted(split | set(top))))
for B, N, D, K, dtype in PROBES:
    s = {"B": B, "N": N, "D": D, "K": K, "dtype": dtype}
    if dict(s, heldout=False) in shapes:      # a table point already (after call 1's merge)
        continue
    chosen = routed.route(B, N, D, K, dtype)["config"]
    shapes.append(dict(s, heldout=False))
    only.append(dict(s, heldout=False, configs=sorted(split_configs(s) | {chosen})))
json.dump({"shapes": shapes}, open(os.path.join(HERE, f"{args.tag}-grid.json"), "w"), indent=0)
json.dump(only, open(os.path.join(HERE, f"{args.tag}-only.json"), "w"), indent=0)
print(len(shapes), "shapes,", sum(len(o["configs"]) for o in only), "pairs")
