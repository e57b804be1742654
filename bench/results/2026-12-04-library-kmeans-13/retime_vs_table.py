#!/usr/bin/env python3
"""Call 6's H100 re-time against the H200 table (README, session 33): per table point, whether the
table's fastest configuration (among those re-timed) is the H100's fastest, and its H100 time
relative to the H100's best. Run from the repository root."""
import json
import math

R = "bench/results/2026-12-04-library-kmeans-13"
key = lambda p: (p["dtype"], p["B"], p["N"], p["D"], p["K"])  # noqa: E731
table = {key(p): p["ms"] for p in json.load(open("libraries/kmeans/table.json"))["points"]}
same, regret = 0, []
for p in json.load(open(f"{R}/tune-retime-h100-0.json"))["points"]:
    old = table.get(key(p), {})
    common = [c for c in p["ms"] if c in old]
    if len(common) < 2:
        continue
    pick, best = min(common, key=old.get), min(common, key=p["ms"].get)
    same += pick == best
    regret.append(p["ms"][pick] / p["ms"][best])
print(f"{len(regret)} points; the H200 table's pick is the H100's fastest at {same}; H100 time of the "
      f"pick / H100 best: geomean {math.exp(sum(map(math.log, regret)) / len(regret)):.4f}, max {max(regret):.3f}")
