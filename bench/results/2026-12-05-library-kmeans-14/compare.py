#!/usr/bin/env python3
"""The README's CPU comparisons (session 34), from the files they name. Run from the repository
root: python3 bench/results/2026-12-05-library-kmeans-14/compare.py
1. card effect: build 13's H200 rows (kmeans-13 final-b13-0) against build 14's H100 rows here;
2. the table's staged times at unaligned D against session 31's H100 re-time (kmeans-13);
3. build 15 against build 14, same card: changed and unchanged routes."""
import json
import math
import subprocess

R = "bench/results/2026-12-05-library-kmeans-14"
K13 = "bench/results/2026-12-04-library-kmeans-13"


def key(x):
    return (x["dtype"], x["B"], x["N"], x["D"], x["K"])


def geo(v):
    return math.exp(sum(map(math.log, v)) / len(v))


def rows(path):
    return {key(x): x for x in json.load(open(path))}


h200, b14, b15 = rows(f"{K13}/final-b13-0.json"), rows(f"{R}/final-b14-0.json"), rows(f"{R}/final-b15-0.json")
same = sorted(b14[k]["cake_ms"] / h200[k]["cake_ms"] for k in h200 if h200[k]["kernel"] == b14[k]["kernel"])
n = len(same)
print(f"1. CAKE H100/H200, same kernel, {n} rows: median {same[n // 2]:.3f}, within 5% "
      f"{sum(abs(r - 1) < 0.05 for r in same) / n:.2f}; flashlib H100/H200 over {len(h200)} rows "
      f"{geo([b14[k]['flashlib_ms'] / h200[k]['flashlib_ms'] for k in h200]):.3f}")

# Build 14's table (commit d112c25), before the re-time was merged into it.
table = {key(p): p for p in json.loads(subprocess.run(
    ["git", "show", "d112c25:libraries/kmeans/table.json"], capture_output=True, text=True,
    check=True).stdout)["points"]}
retime = {key(p): p for p in json.load(open(f"{K13}/tune-retime-h100-0.json"))["points"]}
pairs = [table[k]["ms"][c] / t for k, p in retime.items() if k in table
         and (k[3] * (4 if k[0] == "float32" else 2)) % 16
         for c, t in p["ms"].items() if c in table[k]["ms"]
         and (c.startswith(("sd", "k")) or (c.startswith("c") and not c.startswith("cpw")))]
print(f"2. staged configurations at unaligned D, table / re-time: {geo(pairs):.3f} over {len(pairs)} pairs")

changed = [k for k in b14 if b14[k]["kernel"] != b15[k]["kernel"]]
kept = [k for k in b14 if b14[k]["kernel"] == b15[k]["kernel"]]
for name, ks in (("changed", changed), ("changed tuned", [k for k in changed if b14[k]["tuned"]]),
                 ("changed held-out", [k for k in changed if not b14[k]["tuned"]]), ("unchanged", kept)):
    r = [b14[k]["cake_ms"] / b15[k]["cake_ms"] for k in ks]
    print(f"3. {name}: {len(ks)} routes, build 14 / build 15 time {geo(r):.3f}, "
          f"> 3% faster {sum(x > 1.03 for x in r)}, > 3% slower {sum(x < 0.97 for x in r)}")
