#!/usr/bin/env python3
"""Session 38: the tune call's shapes and configurations for the wgmma family's `ra` variants
(A fragments in registers, cake.wgmma.regs; libraries/kmeans/families/wgmma.py).

    python3 bench/results/2026-12-06-library-kmeans-18/ra_plan.py

- Every routing-table point (none is held out) whose three fastest configurations include a
  wgmma one: each legal `ra` configuration (both index widths) and the table's three fastest,
  re-timed in the same call (the pairing).
- Large probe shapes (fp16 and bf16; D 128, 256 and 401; N 2^17 to 2^20; K 4096 and 8192; in no
  grid, chosen for the issue's 550 TFLOP/s goal): every legal configuration of the tensor-core
  families wgmma, splitd and cpw, so the table learns that region whole.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "libraries", "runtime"))
from cake_library.route import Router  # noqa: E402

PROBES = [(1, 1048576, 128, 4096, "float16"), (1, 262144, 256, 8192, "bfloat16"),
          (2, 131072, 401, 4096, "bfloat16"), (1, 524288, 256, 4096, "float16"),
          (4, 65536, 128, 8192, "bfloat16"), (1, 262144, 384, 6000, "float16")]

variants = json.load(open(os.path.join(ROOT, "libraries", "kmeans", "variants.json")))["variants"]
table = json.load(open(os.path.join(ROOT, "libraries", "kmeans", "table.json")))["points"]
family = {v["config"]: v["family"] for v in variants}
router = Router({"op": "kmeans_assign", "variants": variants, "table": {"points": []}},
                variants_checked=True)


def legal(s):
    return {v["config"] for v in router.legal(s["B"], s["N"], s["D"], s["K"], s["dtype"])}


shapes, only = [], []
for t in table:
    top = sorted(t["ms"], key=t["ms"].get)[:3]
    if not any(family.get(c) == "wgmma" for c in top):
        continue
    s = {k: t[k] for k in ("B", "N", "D", "K", "dtype")}
    ra = {c for c in legal(s) if "_ra" in c}
    if ra:
        shapes.append(dict(s, heldout=False))
        only.append(dict(s, heldout=False, configs=sorted(ra | set(top))))
for B, N, D, K, dtype in PROBES:
    s = {"B": B, "N": N, "D": D, "K": K, "dtype": dtype}
    configs = {c for c in legal(s) if family[c] in ("wgmma", "splitd", "cpw")}
    shapes.append(dict(s, heldout=False))
    only.append(dict(s, heldout=False, configs=sorted(configs)))
json.dump({"shapes": shapes}, open(os.path.join(HERE, "ra-grid.json"), "w"), indent=0)
json.dump(only, open(os.path.join(HERE, "ra-only.json"), "w"), indent=0)
print(len(shapes), "shapes,", sum(len(o["configs"]) for o in only), "pairs")
