#!/usr/bin/env python3
"""At every routing-table point where the tcd family was timed with 1-element loads (v1) and a
wider load (v2/v4/v8) of the same tile, the ratio v1 / widest: what odd D (v1 only) costs tcd.
Also the grid rows of call G below 1.0x flashlib whose kernel reads x element by element."""
import json
import math
import re

table = json.load(open("libraries/kmeans/table.json"))["points"]
ratios = []
for p in table:
    by = {}
    for name, ms in p["ms"].items():
        m = re.match(r"tcd_(r\d_n\d+)_v(\d)(.*)", name)
        if m and ms:
            by.setdefault(m.group(1) + m.group(3), {})[int(m.group(2))] = ms
    for tile, t in by.items():
        if 1 in t and len(t) > 1:
            ratios.append(t[1] / t[max(t)])
g = math.exp(sum(map(math.log, ratios)) / len(ratios))
print(f"tcd, same tile: v1 / widest load over {len(ratios)} (point, tile) pairs: geomean {g:.2f}x, "
      f"median {sorted(ratios)[len(ratios) // 2]:.2f}x, max {max(ratios):.2f}x")
rows = json.load(open("bench/results/2026-12-07-router-heldout/rows.json"))
slow = [r for r in rows if r["flashlib_ms"] / r["cake_ms"] < 1.0]
v1 = [r for r in slow if re.search(r"_v1(_|$)", r["kernel"]) or "_simt_" in r["kernel"]]
print(f"call G rows below 1.0x flashlib: {len(slow)}; with element-wise x loads (tcd v1, simt): {len(v1)}")
for r in sorted(v1, key=lambda r: -r["cake_ms"]):
    print(f"  {r['dtype']:<8} B{r['B']} N{r['N']} D{r['D']} K{r['K']} {r['kernel']} "
          f"{r['cake_ms'] * 1e3:.1f} us vs flashlib {r['flashlib_ms'] * 1e3:.1f} us")
