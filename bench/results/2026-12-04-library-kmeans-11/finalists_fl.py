#!/usr/bin/env python3
"""Calls 1-2's list (kmeans_bench.py --only): at every tuned shape where a tcd configuration is
within 1.5x of the shape's best (table.json), its three fastest tcd tiles (the table's measured
configurations), their `fl` builds (64- and 32-bit index) and the shape's best.

    python3 bench/results/2026-12-04-library-kmeans-11/finalists_fl.py LIBRARY_JSON TABLE OUT

LIBRARY_JSON: a build with build.py --flat-tcd; TABLE: libraries/kmeans/table.json as of calls
1-2 (git show d7680d5:libraries/kmeans/table.json); OUT was .device/ws/fl.json.
"""
import json
import re
import sys

if len(sys.argv) != 4:
    sys.exit("usage: finalists_fl.py LIBRARY_JSON TABLE OUT")
lib, table, out = sys.argv[1:4]
try:
    configs = {v["config"] for v in json.load(open(lib))["variants"]}
    points = json.load(open(table))["points"]
except (OSError, ValueError, KeyError) as e:
    sys.exit(f"finalists_fl.py: {type(e).__name__}: {e}")
rows = []
for p in points:
    ms = p["ms"]
    best = min(ms.values())
    tcd = sorted((m, c) for c, m in ms.items() if c.startswith("tcd_") and m <= 1.5 * best)
    if not tcd:
        continue
    span = 4 if p["dtype"] == "float32" else 8
    pick, tiles = {min(ms, key=ms.get)}, []
    for _, c in tcd:
        pick.add(c)
        tile = re.sub(r"_v\d", f"_v{span}", c[:-4] if c.endswith("_i32") else c, count=1)
        if tile not in tiles:
            tiles.append(tile)
        if len(tiles) >= 3:
            break
    for tile in tiles:
        pick |= {c for c in (tile + "_fl", tile + "_fl_i32") if c in configs}
    rows.append({k: p[k] for k in ("dtype", "B", "N", "D", "K")} | {"configs": sorted(pick)})
json.dump(rows, open(out, "w"))
print(f"{len(rows)} shapes, {sum(len(r['configs']) for r in rows)} measurements")
