#!/usr/bin/env python3
"""Call 3's list (kmeans_bench.py --only): at every tuned shape of table.json whose D is one step
of tcd (D <= 32 for fp16/bf16, 16 for fp32), the `hx` configurations with the widest loads its D
allows (64- and 32-bit index), and the shape's three fastest configurations by the table (timed
again in the same call).

    python3 bench/results/2026-12-04-library-kmeans-11/finalists_hx.py LIBRARY_JSON TABLE OUT
"""
import json
import sys

if len(sys.argv) != 4:
    sys.exit("usage: finalists_hx.py LIBRARY_JSON TABLE OUT")
lib, table, out = sys.argv[1:4]
try:
    variants = json.load(open(lib))["variants"]
    points = json.load(open(table))["points"]
except (OSError, ValueError, KeyError) as e:
    sys.exit(f"finalists_hx.py: {type(e).__name__}: {e}")
hx = [v for v in variants if v.get("params", {}).get("hx")]
rows = []
for p in points:
    span = 4 if p["dtype"] == "float32" else 8
    if p["D"] > 4 * span:
        continue
    v = max(w for w in (1, 2, 4, 8) if w <= span and p["D"] % w == 0)
    pick = {c for c, _ in sorted(p["ms"].items(), key=lambda e: e[1])[:3]}
    pick |= {h["config"] for h in hx if h["dtype"] == p["dtype"] and h["params"]["v"] == v}
    rows.append({k: p[k] for k in ("dtype", "B", "N", "D", "K")} | {"configs": sorted(pick)})
json.dump(rows, open(out, "w"))
print(f"{len(rows)} shapes, {sum(len(r['configs']) for r in rows)} measurements")
