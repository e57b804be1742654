#!/usr/bin/env python3
"""The tune list (kmeans_bench --only) for the staged-x tcd experiment (`stx`, build.py
--staged-x): every fp16/bf16 routing-table point where x must be read element by element by
tcd (odd D) inside the staged kernels' domain (D <= 256, K <= 128), with
the point's three fastest configurations beside every `stx` configuration of the tightest
centroid tile (the smallest kn in TCD_CS_KN with 8 kn >= K), one and two row tiles, 2-4 blocks
per SM, 64- and 32-bit index: one timer in one call ranks them.

    python3 bench/results/2026-12-07-odd-d-loads/stx_tune.py > stx-tune.json
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "libraries", "kmeans"))
import build  # noqa: E402
from families.tcd import TCD_CS_KN, tcd_resident_variants  # noqa: E402


def element_loads(p):
    """fp16/bf16 at odd D (fp32's staged kernels would run 3xTF32: not the experiment's question)."""
    return p["dtype"] != "float32" and p["D"] % 2 != 0


def main():
    with open(os.path.join(ROOT, "libraries", "kmeans", "table.json")) as f:
        points = json.load(f)["points"]
    staged = {}
    for v in tcd_resident_variants(build.family.DTYPES, staged_x=True):
        if v.get("stx"):
            staged.setdefault((v["dtype"], v["kn"]), set()).add(build.config_name(v))
    out = []
    for p in points:
        if not element_loads(p) or p["D"] > 256 or p["K"] > 128:
            continue
        kn = min(k for k in TCD_CS_KN if 8 * k >= p["K"])
        best = sorted((ms, name) for name, ms in p["ms"].items() if ms)[:3]
        configs = sorted(staged.get((p["dtype"], kn), ()))
        configs = [c for base in configs for c in (base, base + "_i32")]
        out.append({k: p[k] for k in ("dtype", "B", "N", "D", "K")} | {"configs": [n for _, n in best] + configs})
    json.dump(out, sys.stdout, indent=0)
    print(f"{len(out)} points, {sum(len(s['configs']) for s in out)} pairs", file=sys.stderr)


if __name__ == "__main__":
    main()
