#!/usr/bin/env python3
"""Merges the tune phase's outputs into a library definition's routing table.

    python3 bench/library/merge_tune.py --out libraries/kmeans/table.json tune-0.json tune-210.json

Each input is {"points": [...]} from kmeans_bench.py --phase tune; the output has every point
once and records its sources (a "neighbours" count in an input is dropped: the router's
NEIGHBOURS decides). A shape measured in several inputs keeps the union of
their configurations (the last input wins for a configuration measured twice), so a family tuned
later (--families) merges into the table of the earlier ones. `--drop lanes_,direct_` removes
the configurations of rebuilt kernels (their old times no longer describe them).

Where a later input re-times some of a point's configurations, the point's other (older) times
are scaled by the geomean ratio new / old over the re-timed ones: the inputs may come from
different cards (the device tool lends an H100 or an H200), and a point whose times mix cards
routes to whichever configurations were measured on the faster card (session 38: fp16 B7 N156830
D216 K2, bandwidth-bound, 168 us on the H200 and 190 on the H100: the re-timed best lost to the
H200 times of configurations nobody re-timed, 0.87x measured). `--no-rescale` keeps the old times.
"""
import argparse
import json
import math
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
    ap.add_argument("--no-rescale", action="store_true",
                    help="keep a point's older times as they are where a later input re-times some")
    ap.add_argument("inputs", nargs="+")
    args = ap.parse_args()
    drop = tuple(s for s in args.drop.split(",") if s)
    points, sources = {}, []
    for path in args.inputs:
        with open(path) as f:
            d = json.load(f)
        # A merged table names its own inputs: keep them rather than the table's path.
        sources += [s for s in (d["source"] if "source" in d else [str(path)]) if s not in sources]
        for p in d["points"]:
            key = (p["dtype"], p["B"], p["N"], p["D"], p["K"])
            old = points.get(key)
            if old is not None:
                scale = 1.0 if args.no_rescale else rescale(old["ms"], p["ms"])
                p = dict(p, ms={**{c: t * scale for c, t in old["ms"].items()}, **p["ms"]},
                         failed={**old.get("failed", {}), **p.get("failed", {})})
            points[key] = p
    for key, p in points.items():
        if drop:
            points[key] = dict(p, ms={c: t for c, t in p["ms"].items() if not c.startswith(drop)})
    with open(args.out, "w") as f:
        json.dump({"points": list(points.values()), "source": sources}, f, indent=0)
    print(f"{len(points)} points -> {args.out}")


def rescale(old, new):
    """The geomean of new / old over the configurations both time (1.0 when none; a time that
    is not positive is no evidence of the card's speed)."""
    shared = [c for c in new if c in old and new[c] > 0 and old[c] > 0]
    if not shared:
        return 1.0
    return math.exp(sum(math.log(new[c] / old[c]) for c in shared) / len(shared))


if __name__ == "__main__":
    main()
