#!/usr/bin/env python3
"""Where the held-out shapes lose to the tuned ones, on the CPU: from a final's rows.json, per
dtype, the geomean speed-up over an anchor of the held-out and the tuned rows, and of each
held-out row against its nearest tuned rows (log2 B, N, K, D distance, same dtype): a ratio
below 1 says the held-out shapes run slower than tuned shapes like them (routing, or a sparse
table), not merely that they are other shapes.

    python3 bench/library/heldout_gap.py bench/results/2026-12-04-library-kmeans-12/rows.json
"""
import argparse
import json
import math
import sys


def features(r):
    return [math.log2(max(r[k], 1)) for k in ("B", "N", "K", "D")]


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rows")
    ap.add_argument("--anchor", default="flashlib", help="flashlib or flash_kmeans")
    ap.add_argument("--nearest", type=int, default=3, help="tuned rows each held-out row is compared with")
    args = ap.parse_args()
    try:
        with open(args.rows) as f:
            rows = json.load(f)
        rows = rows["rows"] if isinstance(rows, dict) else rows
        rows = [r for r in rows if r.get("correct") and r.get("cake_ms") and r.get(args.anchor + "_ms")]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"heldout_gap.py: {args.rows}: {type(e).__name__}: {e}")
    try:
        report(rows, args)
    except (KeyError, TypeError, ZeroDivisionError) as e:
        sys.exit(f"heldout_gap.py: {args.rows}: a row lacks a field or has a bad value ({type(e).__name__}: {e})")


def report(rows, args):
    speedup = {id(r): r[args.anchor + "_ms"] / r["cake_ms"] for r in rows}
    print(f"dtype     held  tuned  held-out x  tuned x  held-out / {args.nearest} nearest tuned")
    for dtype in sorted({r["dtype"] for r in rows}):
        held = [r for r in rows if r["dtype"] == dtype and not r["tuned"]]
        tuned = [r for r in rows if r["dtype"] == dtype and r["tuned"]]
        ratios = []
        for r in held:
            near = sorted(tuned, key=lambda t: sum((a - b) ** 2 for a, b in zip(features(t), features(r))))
            near = near[:args.nearest]
            if near:
                ratios.append(speedup[id(r)] / geomean([speedup[id(t)] for t in near]))
        print(f"{dtype:9} {len(held):4} {len(tuned):6} {geomean([speedup[id(r)] for r in held]):11.3f} "
              f"{geomean([speedup[id(r)] for r in tuned]):8.3f} {geomean(ratios):9.3f}")


if __name__ == "__main__":
    main()
