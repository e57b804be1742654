#!/usr/bin/env python3
"""Lists the configurations worth re-measuring: for each point of a routing table whose best time
is under --below-ms, the --per-family best configurations of each family by that table.

    python3 bench/library/finalists.py libraries/kmeans/table.json --below-ms 0.1 \
        --skip lanes > finalists.json

The output feeds kmeans_bench.py --only (ONLY= in run_h200.sh): one timer, one call, ranks them.
`--skip` leaves out families measured in full elsewhere in the same call.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("table")
    ap.add_argument("--below-ms", type=float, default=0.1)
    ap.add_argument("--per-family", type=int, default=2)
    ap.add_argument("--skip", default="", help="comma-separated config prefixes to leave out")
    args = ap.parse_args()
    skip = tuple(s for s in args.skip.split(",") if s)
    out = []
    try:
        with open(args.table) as fh:
            points = json.load(fh)["points"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"finalists.py: {args.table}: not a routing table ({type(e).__name__}: {e})")
    for p in points:
        ms = {c: t for c, t in p["ms"].items() if not c.startswith(skip)}
        if not ms or min(p["ms"].values()) >= args.below_ms:
            continue
        by = {}
        for c in sorted(ms, key=ms.get):
            fam = c.split("_")[0] if c.split("_")[0] in ("simt", "direct", "lanes", "mma", "tcd") else \
                ("splitd" if c.startswith("sd") else "wgmma")
            if len(by.setdefault(fam, [])) < args.per_family:
                by[fam].append(c)
        out.append({k: p[k] for k in ("dtype", "B", "N", "D", "K")} |
                   {"configs": sorted(c for cs in by.values() for c in cs)})
    json.dump(out, sys.stdout, indent=0)


if __name__ == "__main__":
    main()
