#!/usr/bin/env python3
"""Lists the configurations worth re-measuring: for each point of a routing table whose best time
is under --below-ms, the --per-family best configurations of each family by that table.

    python3 bench/library/finalists.py libraries/kmeans/table.json --below-ms 0.1 \
        --skip lanes > finalists.json

The output feeds kmeans_bench.py --only (ONLY= in run_h200.sh): one timer, one call, ranks them.
`--skip` leaves out families measured in full elsewhere in the same call.

    python3 bench/library/finalists.py TABLE --stale-vs tune-a.json tune-b.json --within 2 \
        --overhead-us 5 > stale.json

lists instead every configuration the given tune outputs (the current timer) did not measure at a
point whose best is under --below-ms, and whose time could still be competitive once the older
timer's overhead is taken off (time - overhead <= within x best): an older timer added up to
~5 us per call (launcher path, session 10 vs 11: 2314 pairs, median +4.6 us for staged families,
+2.0 us for the others), enough to turn a router's comparison at small shapes.
"""
import argparse
import json
import sys


def _key(p):
    return (p["dtype"], p["B"], p["N"], p["D"], p["K"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("table")
    ap.add_argument("--below-ms", type=float, default=0.1)
    ap.add_argument("--per-family", type=int, default=2)
    ap.add_argument("--skip", default="", help="comma-separated config prefixes to leave out")
    ap.add_argument("--stale-vs", nargs="+", metavar="TUNE", help="tune outputs of the current timer")
    ap.add_argument("--within", type=float, default=2.0)
    ap.add_argument("--overhead-us", type=float, default=5.0)
    args = ap.parse_args()
    skip = tuple(s for s in args.skip.split(",") if s)
    out = []
    try:
        with open(args.table) as fh:
            points = json.load(fh)["points"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"finalists.py: {args.table}: not a routing table ({type(e).__name__}: {e})")
    fresh = set()
    for path in args.stale_vs or []:
        try:
            with open(path) as fh:
                fresh |= {_key(p) + (c,) for p in json.load(fh)["points"] for c in p["ms"]}
        except (OSError, ValueError, KeyError, TypeError) as e:
            sys.exit(f"finalists.py: {path}: not a tune output ({type(e).__name__}: {e})")
    for p in points:
        ms = {c: t for c, t in p["ms"].items() if not c.startswith(skip)}
        if args.stale_vs:
            best = min(p["ms"].values()) if p["ms"] else None
            stale = sorted(c for c, t in ms.items() if _key(p) + (c,) not in fresh
                           and t - args.overhead_us * 1e-3 <= args.within * best)
            if stale and best < args.below_ms:
                out.append({k: p[k] for k in ("dtype", "B", "N", "D", "K")} | {"configs": stale})
            continue
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
