#!/usr/bin/env python3
"""The README's call 1 figures, from tune-split-0.json: at each point the fastest split-K
configuration (simt `_sk`, tcd `_kw`) against the fastest other one measured in the same call.

    python3 bench/results/2026-12-06-library-kmeans-17/split_summary.py
"""
import collections
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def is_split(cfg):
    return "_sk" in cfg or "_kw" in cfg


points = json.load(open(os.path.join(HERE, "tune-split-0.json")))["points"]
rows = []
for p in points:
    split = {c: t for c, t in p["ms"].items() if is_split(c)}
    other = {c: t for c, t in p["ms"].items() if not is_split(c)}
    if split and other:
        s, o = min(split, key=split.get), min(other, key=other.get)
        rows.append((other[o] / split[s], p, s, split[s], o, other[o]))
failed = sum(len(p.get("failed") or {}) for p in points)
pairs = sum(len(p["ms"]) for p in points)
wins = [r for r in rows if r[0] > 1]
kinds = collections.Counter("kw" if "_kw" in r[2] else "sk" for r in wins)
print(f"{len(points)} points, {pairs} pairs timed, {failed} failed; a split configuration the fastest at "
      f"{len(wins)} of {len(rows)} (sk {kinds['sk']}, kw {kinds['kw']}); geomean best other / best split "
      f"{math.exp(sum(math.log(r[0]) for r in rows) / len(rows)):.3f}")
for r, p, s, ts, o, to in sorted(rows, key=lambda e: -e[0])[:12]:
    print(f"  {p['dtype']} B{p['B']} N{p['N']} D{p['D']} K{p['K']}: {s} {ts * 1e3:.1f} us vs {o} {to * 1e3:.1f} us ({r:.2f}x)")
wide = [e for e in rows if e[1]["D"] > 256]
print(f"D > 256: split the fastest at {sum(1 for e in wide if e[0] > 1)} of {len(wide)}; geomean "
      f"{math.exp(sum(math.log(e[0]) for e in wide) / len(wide)):.3f}")
