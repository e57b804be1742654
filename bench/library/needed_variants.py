#!/usr/bin/env python3
"""The assignment variants one GPU call launches, from the library's definition alone (the committed
variants.json and table.json: nothing built), for `build.py --subset`:

    python3 bench/library/needed_variants.py [--grid libraries/kmeans/grid.json] \
        [--only tune-list.json ...] [--candidates N (default: the autotuner's)] [--evolved libraries/kmeans/evolved.json] > subset.json

Per grid shape, the router's pick and the other candidates its first-call autotuning times
(prune_package.needed, the same rule a pruned package keeps); per --only list (a tune's
{dtype, B, N, D, K, configs}), every legal variant of the listed configurations; and every variant
of the configurations evolved.json adds, since a tune that measures them may make the router pick
them. A library built from the subset routes these shapes as the whole library does: the
router ranks the table's configurations, and what it picks or times is in the subset.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KMEANS = os.path.join(HERE, "..", "..", "libraries", "kmeans")
sys.path.insert(0, HERE)
sys.path.insert(0, KMEANS)
from prune_package import DEFAULT_CANDIDATES, needed  # noqa: E402
import build  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default=os.path.join(KMEANS, "variants.json"))
    ap.add_argument("--table", default=os.path.join(KMEANS, "table.json"))
    ap.add_argument("--grid", action="append", default=[],
                    help="a grid file ({\"shapes\": [...]}); repeatable (default libraries/kmeans/grid.json)")
    ap.add_argument("--only", action="append", default=[], help="a tune list; repeatable")
    ap.add_argument("--candidates", type=int, default=DEFAULT_CANDIDATES)
    ap.add_argument("--evolved", default=build.EVOLVED)
    args = ap.parse_args()
    try:
        with open(args.variants) as f:
            variants = json.load(f)["variants"]
        with open(args.table) as f:
            library = {"op": "kmeans_assign", "variants": variants, "table": json.load(f)}
        names = set()
        for path in args.grid or [os.path.join(KMEANS, "grid.json")]:
            with open(path) as f:
                names |= needed(library, json.load(f)["shapes"], None, args.candidates)
        for path in args.only:
            with open(path) as f:
                only = {(o["dtype"], o["B"], o["N"], o["D"], o["K"]): o["configs"] for o in json.load(f)}
            shapes = [dict(zip(("dtype", "B", "N", "D", "K"), k)) for k in only]
            names |= needed(library, shapes, only)
        if os.path.exists(args.evolved):
            with open(args.evolved) as f:
                added = [dict(e["params"]) for e in json.load(f).get("configs", [])]
            names |= {build.variant_name(p) for p in build.with_twins(added)}
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"needed_variants.py: {type(e).__name__}: {e}")
    json.dump(sorted(names), sys.stdout, indent=0)
    print()
    print(f"needed_variants.py: {len(names)} of {len(variants)} variants", file=sys.stderr)


if __name__ == "__main__":
    main()
