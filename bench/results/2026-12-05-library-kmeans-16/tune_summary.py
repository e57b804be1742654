#!/usr/bin/env python3
"""The figures of README's "Call 2" section, from this folder's tune outputs and the table.

    python3 bench/results/2026-12-05-library-kmeans-16/tune_summary.py
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def is_new_cs(c):
    return "_cs_" in c and (c.startswith("tcd_r2") or "_pf" in c or any(f"_n{k}_" in c for k in (5, 7, 9)))


cs = json.load(open(os.path.join(HERE, "tune-cs2-0.json")))["points"]
table = {(p["dtype"], p["B"], p["N"], p["D"], p["K"]): p
         for p in json.load(open(os.path.join(ROOT, "libraries", "kmeans", "table.json")))["points"]}
measured = [p for p in cs if len(p["ms"]) >= 2]
r2_vs_r1, pf_vs_r1, fastest = [], [], []
for p in measured:
    ms = p["ms"]
    r1 = [t for c, t in ms.items() if c.startswith("tcd_r1") and "_cs_" in c and "_pf" not in c]
    r2 = [t for c, t in ms.items() if c.startswith("tcd_r2") and "_cs_" in c]
    pf = [t for c, t in ms.items() if "_pf" in c and "_cs_" in c]
    if r1 and r2:
        r2_vs_r1.append(min(r2) / min(r1))
    if r1 and pf:
        pf_vs_r1.append(min(pf) / min(r1))
    best = min(ms, key=ms.get)
    if "_cs_" in best:
        old = table[(p["dtype"], p["B"], p["N"], p["D"], p["K"])]["ms"]
        fastest.append((p["B"], p["N"], p["D"], p["K"], p["dtype"], best, round(ms[best] * 1e3, 1),
                        min(old, key=old.get), round(min(old.values()) * 1e3, 1), is_new_cs(best)))
print(f"cs: {len(measured)} points measured cs; the fastest is cs at {len(fastest)}, a new form at "
      f"{sum(f[-1] for f in fastest)}")
print(f"  r2 / r1 {geomean(r2_vs_r1):.3f} (r2 faster at {sum(x < 1 for x in r2_vs_r1)} of {len(r2_vs_r1)}); "
      f"pf-cs / r1 {geomean(pf_vs_r1):.3f} (faster at {sum(x < 1 for x in pf_vs_r1)} of {len(pf_vs_r1)})")
for f in fastest:
    print("  B{} N{} D{} K{} {}: {} {} us (table: {} {} us){}".format(*f[:-1], " new" if f[-1] else ""))

pf = json.load(open(os.path.join(HERE, "tune-pf-0.json")))["points"]
pairs = [(p, c, p["ms"][c.replace("_pf", "")] / t) for p in pf for c, t in p["ms"].items()
         if "_pf" in c and c.replace("_pf", "") in p["ms"]]
wide = [r for p, _, r in pairs if p["D"] >= 4 * (4 if p["dtype"] == "float32" else 8)]
print(f"pf: {len(pairs)} pairs, base/pf {geomean([r for *_, r in pairs]):.3f}, faster at "
      f"{sum(r > 1 for *_, r in pairs)}, by > 5% at {sum(r > 1.05 for *_, r in pairs)}; D >= 4 steps: "
      f"{sum(r > 1 for r in wide)} of {len(wide)}; the fastest at "
      f"{sum('_pf' in min(p['ms'], key=p['ms'].get) for p in pf)} of {len(pf)} points")
for p, c, r in sorted(pairs, key=lambda e: -e[2])[:6]:
    print(f"  B{p['B']} N{p['N']} D{p['D']} K{p['K']} {p['dtype']}: {c} {r:.2f}x")
