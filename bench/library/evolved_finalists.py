#!/usr/bin/env python3
"""The tune list (kmeans_bench.py --only) that measures evolved configurations across their buckets:
for every point of the routing table in the bucket of an evolved.json entry, that entry's
configuration (64- and 32-bit index) beside the point's --keep best configurations by the table,
so that one timer in one call ranks the evolved ones against what routes there now.

    python3 bench/library/evolved_finalists.py [--evolved libraries/kmeans/evolved.json] \
        [--table libraries/kmeans/table.json] [--keep 2] > evolved-only.json

Then merge_tune.py merges the tune's points into the table (the re-timed configurations rescale
the point's others), and the router sends each point to its fastest.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KMEANS = os.path.join(HERE, "..", "..", "libraries", "kmeans")
sys.path.insert(0, KMEANS)
import build  # noqa: E402
import evolve  # noqa: E402


def finalists(evolved, table, keep):
    """[{dtype, B, N, D, K, configs}] for the table's points in the evolved entries' buckets."""
    by_bucket = {}
    for entry in evolved.get("configs", []):
        p = build.evolved_params(entry)
        names = [build.config_name(p), build.config_name(dict(p, index_bits=32))]
        by_bucket.setdefault(entry["bucket"], []).extend(names)
    out = []
    for point in table["points"]:
        extra = by_bucket.get(evolve.bucket_of(point))
        if not extra:
            continue
        ranked = sorted(point["ms"], key=point["ms"].get)[:keep]
        configs = list(dict.fromkeys(extra + ranked))
        out.append({k: point[k] for k in ("dtype", "B", "N", "D", "K")} | {"configs": configs})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--evolved", default=os.path.join(KMEANS, "evolved.json"))
    ap.add_argument("--table", default=os.path.join(KMEANS, "table.json"))
    ap.add_argument("--keep", type=int, default=2, help="the point's best configurations kept beside")
    args = ap.parse_args()
    try:
        with open(args.evolved) as f:
            evolved = json.load(f)
        with open(args.table) as f:
            table = json.load(f)
        rows = finalists(evolved, table, args.keep)
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"evolved_finalists.py: {type(e).__name__}: {e}")
    json.dump(rows, sys.stdout, indent=0)
    print()
    print(f"evolved_finalists.py: {len(rows)} points, {sum(len(r['configs']) for r in rows)} "
          "configurations to time", file=sys.stderr)


if __name__ == "__main__":
    main()
