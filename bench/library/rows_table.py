#!/usr/bin/env python3
"""The results table of a KMeans library final (rows.json from kmeans_bench.py --phase final):
geomean speed-up over each anchor by part of the grid (tuned / held-out, work, K, dtype, the
launched family), shapes at >= 1.0x and the worst, as Markdown. With --before, the same shapes'
geomean in an earlier rows.json beside each part.

    python3 bench/library/rows_table.py rows.json [--before old/rows.json]

A row counts only when CAKE's answer was judged correct and both times exist.
"""
import argparse
import json
import math
import sys


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def work(r):
    return 2.0 * r["B"] * r["N"] * r["K"] * r["D"]


PARTS = [
    ("all", lambda r: True),
    ("tuned", lambda r: r["tuned"]),
    ("**held-out**", lambda r: not r["tuned"]),
    ("work < 1 MFLOP", lambda r: work(r) < 1e6),
    ("1 - 100 MFLOP", lambda r: 1e6 <= work(r) < 1e8),
    ("100 MFLOP - 10 GFLOP", lambda r: 1e8 <= work(r) < 1e10),
    ("> 10 GFLOP", lambda r: work(r) >= 1e10),
    ("K <= 8", lambda r: r["K"] <= 8),
    ("9 <= K <= 32", lambda r: 9 <= r["K"] <= 32),
    ("33 <= K <= 64", lambda r: 33 <= r["K"] <= 64),
    ("K > 64", lambda r: r["K"] > 64),
    ("float16", lambda r: r["dtype"] == "float16"),
    ("bfloat16", lambda r: r["dtype"] == "bfloat16"),
    ("float32", lambda r: r["dtype"] == "float32"),
]


def key(r):
    return (r["dtype"], r["B"], r["N"], r["D"], r["K"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rows")
    ap.add_argument("--before")
    ap.add_argument("--worst", type=int, default=8)
    args = ap.parse_args()
    try:
        with open(args.rows) as f:
            rows = json.load(f)
        before = {}
        if args.before:
            with open(args.before) as f:
                before = {key(r): r for r in json.load(f)}
    except (OSError, ValueError) as e:
        sys.exit(f"rows_table.py: {e}")
    ok = [r for r in rows if r.get("correct") and r.get("speedup_flashlib") and r.get("speedup_flash_kmeans")]
    print(f"{len(ok)} of {len(rows)} rows correct and timed\n")
    families = sorted({r["family"] for r in ok})
    parts = PARTS + [(f"launched family {f}", (lambda f: lambda r: r["family"] == f)(f)) for f in families]
    head = "| part | shapes | vs flashlib | vs flash-kmeans | >= 1.0x | min |"
    print(head + (" before, same shapes |" if before else ""))
    print("|---" * (6 + bool(before)) + "|")
    for label, sel in parts:
        rs = [r for r in ok if sel(r)]
        if not rs:
            continue
        fl = [r["speedup_flashlib"] for r in rs]
        line = (f"| {label} | {len(rs)} | {geomean(fl):.3f} | {geomean([r['speedup_flash_kmeans'] for r in rs]):.3f} "
                f"| {sum(1 for x in fl if x >= 1.0)} | {min(fl):.2f} |")
        if before:
            old = [before[key(r)]["speedup_flashlib"] for r in rs
                   if before.get(key(r), {}).get("speedup_flashlib") and before[key(r)].get("correct")]
            line += f" {geomean(old):.3f} ({len(old)}) |" if old else " |"
        print(line)
    best = max(ok, key=lambda r: work(r) / r["cake_ms"])
    print(f"\nBest {work(best) / best['cake_ms'] / 1e9:.0f} TFLOP/s (B{best['B']} N{best['N']} D{best['D']} "
          f"K{best['K']} {best['dtype']}); host time per call median "
          f"{sorted(r['host_us'] for r in ok)[len(ok) // 2]:.1f} us (Python API), "
          f"{sorted(r['host_us_dispatch'] for r in ok if r.get('host_us_dispatch'))[len(ok) // 2]:.1f} us "
          f"(dispatcher call)\n\nWorst rows:")
    for r in sorted(ok, key=lambda r: r["speedup_flashlib"])[:args.worst]:
        print(f"- B{r['B']} N{r['N']} D{r['D']} K{r['K']} {r['dtype']} {'tuned' if r['tuned'] else 'held-out'}: "
              f"{r['kernel']} {r['cake_ms'] * 1e3:.1f} us vs flashlib {r['flashlib_ms'] * 1e3:.1f} "
              f"({r['speedup_flashlib']:.2f}x)")


if __name__ == "__main__":
    main()
