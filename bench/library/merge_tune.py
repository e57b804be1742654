#!/usr/bin/env python3
"""Merges the tune phase's outputs into a library definition's routing table.

    python3 bench/library/merge_tune.py --out libraries/kmeans/table.json tune-0.json tune-210.json

Each input is {"points": [...]} from kmeans_bench.py --phase tune; the output has every point
once and records its sources (a "neighbours" count in an input is dropped: the router's
NEIGHBOURS decides). A shape measured in several inputs keeps the union of
their configurations (the last input wins for a configuration measured twice), so a family tuned
later (--families) merges into the table of the earlier ones. `--drop lanes_,direct_` removes
the configurations of rebuilt kernels (their old times no longer describe them).
"""
import argparse
import json
import sys


def main():
    try:
        merge()
    except (OSError, ValueError, KeyError) as e:   # a missing input, bad JSON, no "points"
        sys.exit(f"merge_tune.py: {type(e).__name__}: {e}")


def merge():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--drop", default="", help="comma-separated configuration prefixes to remove")
    ap.add_argument("inputs", nargs="+")
    args = ap.parse_args()
    drop = tuple(s for s in args.drop.split(",") if s)
    points, sources = {}, []
    for path in args.inputs:
        with open(path) as f:
            d = json.load(f)
        # A merged table names its own inputs: keep them rather than the table's path.
        sources += d["source"] if "source" in d else [str(path)]
        for p in d["points"]:
            key = (p["dtype"], p["B"], p["N"], p["D"], p["K"])
            old = points.get(key)
            if old is not None:
                p = dict(p, ms={**old["ms"], **p["ms"]},
                         failed={**old.get("failed", {}), **p.get("failed", {})})
            points[key] = p
    for key, p in points.items():
        if drop:
            points[key] = dict(p, ms={c: t for c, t in p["ms"].items() if not c.startswith(drop)})
    with open(args.out, "w") as f:
        json.dump({"points": list(points.values()), "source": sources}, f, indent=0)
    print(f"{len(points)} points -> {args.out}")


if __name__ == "__main__":
    main()
