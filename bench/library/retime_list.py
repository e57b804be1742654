#!/usr/bin/env python3
"""Lists, per measured shape, the configurations worth timing again in one GPU call.

    python3 bench/library/retime_list.py --table libraries/kmeans/table.json \
        [--also tune-new.json ...] [--top 8] [--within 1.3] --out retime.json

A table gathered over many sessions mixes times from different builds and launch paths: an old
configuration's time on a tiny shape can be stale by more than the gap a new candidate wins by
(bench/results/2026-12-04-library-kmeans-12, call 7). Merging new candidates against it then
picks winners on paper only. This lists, for every point, its `top` fastest configurations within
`within` of its best (the table and the --also inputs together, the later input winning for a
configuration timed twice, as merge_tune.py does), as the --only list of
kmeans_bench.py --phase tune: timed again side by side, they replace the old times in the table
(merge_tune.py, last input wins).
"""
import argparse
import json
import sys


def candidates(paths):
    points = {}
    for path in paths:
        with open(path) as f:
            for p in json.load(f)["points"]:
                key = (p["dtype"], p["B"], p["N"], p["D"], p["K"])
                points[key] = {**points.get(key, {}), **p["ms"]}
    return points


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", required=True)
    ap.add_argument("--also", nargs="*", default=[])
    ap.add_argument("--top", type=int, default=8)
    ap.add_argument("--within", type=float, default=1.3)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    if args.top < 1 or args.within < 1.0:
        sys.exit("retime_list.py: --top must be >= 1 and --within >= 1.0")
    try:
        points = candidates([args.table] + args.also)
    except (OSError, ValueError, KeyError, TypeError) as e:   # a missing input, bad JSON, no "points"
        sys.exit(f"retime_list.py: {type(e).__name__}: {e}")
    out = []
    for (dtype, B, N, D, K), ms in points.items():
        if not ms:
            continue
        best = min(ms.values())
        ranked = sorted((t, c) for c, t in ms.items() if t <= args.within * best)
        out.append({"dtype": dtype, "B": B, "N": N, "D": D, "K": K,
                    "configs": [c for _, c in ranked[:args.top]]})
    with open(args.out, "w") as f:
        json.dump(out, f, indent=0)
    print(f"{len(out)} shapes, {sum(len(s['configs']) for s in out)} (shape, configuration) pairs "
          f"-> {args.out}")


if __name__ == "__main__":
    main()
