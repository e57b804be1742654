#!/usr/bin/env python3
"""How a router does on shapes it never saw: its choices at the grid's held-out shapes against an
evaluation table measured there (kmeans_bench.py --phase tune --heldout with
heldout_finalists.py's list; never merged into the routing table).

    python3 bench/library/heldout_regret.py --eval heldout-tune.json [--library libraries/kmeans] \
        [--candidates 1,4,8]

Per candidate count n: the geomean over the shapes of (the fastest of the router's n best-ranked
kernels, measured) / (the fastest configuration measured at the shape), how often that is the
best, and how many shapes had no measured candidate (not counted). n = 1 is route()'s pick, n = 8
what the first-call autotuner times by default (cake_library/autotune.py; timing assumed exact).
"""
import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from route_cv import load  # noqa: E402
from cake_library.route import NoKernel, Router  # noqa: E402


def regrets(router, points, count):
    """[(point, chosen configuration or None, chosen / best time or None)]."""
    out = []
    for p in points:
        if not p["ms"]:
            continue
        try:
            cands = [c["config"] for c in router.candidates(p["B"], p["N"], p["D"], p["K"], p["dtype"], count)]
        except NoKernel:
            out.append((p, None, None))
            continue
        timed = [c for c in cands if c in p["ms"]]
        cfg = min(timed, key=p["ms"].get) if timed else None
        out.append((p, cfg, p["ms"][cfg] / min(p["ms"].values()) if cfg else None))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval", required=True, help="the held-out shapes' tune output ({points: [...]})")
    ap.add_argument("--library", default=os.path.join(HERE, "..", "..", "libraries", "kmeans"))
    ap.add_argument("--candidates", default="1,4,8")
    ap.add_argument("--worst", type=int, default=5)
    args = ap.parse_args()
    try:
        router = Router(load(args.library))
        with open(args.eval) as f:
            points = json.load(f)["points"]
        counts = [int(c) for c in args.candidates.split(",")]
        scored = [(n, regrets(router, points, n)) for n in counts]
    except (OSError, ValueError, KeyError, TypeError) as e:   # a point without sizes or times, say
        sys.exit(f"heldout_regret.py: {type(e).__name__}: {e}")
    for n, rows in scored:
        known = [(p, c, r) for p, c, r in rows if r is not None]
        if not known:
            sys.exit("heldout_regret.py: no held-out shape has a measured candidate")
        g = math.exp(sum(math.log(r) for _, _, r in known) / len(known))
        print(f"candidates {n}: {len(rows)} shapes, geomean regret {g:.3f}, best on "
              f"{sum(1 for _, _, r in known if r == 1.0)}, no measured candidate on {len(rows) - len(known)}")
        for p, c, r in sorted(known, key=lambda e: -e[2])[:args.worst]:
            best = min(p["ms"], key=p["ms"].get)
            print(f"  B{p['B']} N{p['N']} D{p['D']} K{p['K']} {p['dtype']}: {c} {p['ms'][c] * 1e3:.1f} us, "
                  f"best {best} {p['ms'][best] * 1e3:.1f} us ({r:.2f}x)")


if __name__ == "__main__":
    main()
