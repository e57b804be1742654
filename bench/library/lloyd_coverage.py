#!/usr/bin/env python3
"""Which grid shapes have a Lloyd measurement (kmeans_bench.py --phase lloyd rows under
bench/results: correct, both times present), and the list of the others for the next call.

    python3 bench/library/lloyd_coverage.py [--grid libraries/kmeans/grid.json] [--results bench/results]
        [--emit-missing ONLY.json]

Prints the coverage and, per shape measured more than once, only its latest row counts (the
folders sort by date). Row files whose name says "bug" (a run kept to show a fixed bug) are skipped.
--emit-missing writes the unmeasured grid shapes in grid order in the --only format of
kmeans_bench.py (run_h200.sh ONLY=...)."""
import argparse
import glob
import json
import math
import os
import sys


def key(s):
    return (s["dtype"], s["B"], s["N"], s["D"], s["K"])


def lloyd_rows(results):
    """{shape key: (file, row)} of the latest correct Lloyd row of each shape."""
    latest = {}
    for f in sorted(glob.glob(os.path.join(results, "**", "*lloyd*.json"), recursive=True)):
        if "bug" in os.path.basename(f):
            continue
        try:
            with open(f) as fh:
                rows = json.load(fh)
        except (OSError, ValueError):
            continue
        if not isinstance(rows, list) or not all(isinstance(r, dict) and "cake_ms" in r for r in rows):
            continue        # a shape list (ONLY file), not measured rows
        for r in rows:
            if r.get("correct") and r.get("cake_ms") and r.get("flashlib_ms"):
                latest[key(r)] = (f, r)
    return latest


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--grid", default="libraries/kmeans/grid.json")
    ap.add_argument("--results", default="bench/results")
    ap.add_argument("--emit-missing", metavar="ONLY.json")
    args = ap.parse_args()
    try:
        with open(args.grid) as f:
            grid = json.load(f)["shapes"]
        for s in grid:
            key(s)          # every shape has its sizes
    except (OSError, ValueError, KeyError, TypeError) as e:    # a grid without shapes or sizes
        sys.exit(f"lloyd_coverage.py: --grid {args.grid}: {type(e).__name__}: {e}")
    latest = lloyd_rows(args.results)
    measured = [s for s in grid if key(s) in latest]
    speedups = [latest[key(s)][1]["flashlib_ms"] / latest[key(s)][1]["cake_ms"] for s in measured]
    geo = math.exp(sum(map(math.log, speedups)) / len(speedups)) if speedups else float("nan")
    print(f"Lloyd: {len(measured)} of {len(grid)} grid shapes measured; latest rows: "
          f"{geo:.2f}x flashlib geomean, min {min(speedups, default=float('nan')):.2f}x, "
          f"{sum(x < 1.0 for x in speedups)} below 1.0x")
    if args.emit_missing:
        missing = [dict(dtype=s["dtype"], B=s["B"], N=s["N"], D=s["D"], K=s["K"], configs=[])
                   for s in grid if key(s) not in latest]
        try:
            with open(args.emit_missing, "w") as f:
                json.dump(missing, f, indent=0)
        except OSError as e:
            sys.exit(f"lloyd_coverage.py: --emit-missing: {e}")
        print(f"{len(missing)} unmeasured shapes -> {args.emit_missing}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
