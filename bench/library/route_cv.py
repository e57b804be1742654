#!/usr/bin/env python3
"""Leave-one-out check of the router's generalization, on the CPU: each measured tuning shape is
routed with a table that lacks it, and the chosen configuration's time at that shape (measured)
is compared with the shape's best. What held-out shapes lose to routing, without a GPU.

    python3 bench/library/route_cv.py --library .device/klib [--neighbours 4] [--candidates 4]

`--candidates n`: the time of the fastest of the router's n best-ranked kernels instead (what the
Python API's first-call autotuning keeps, cake_library/autotune.py; timing assumed exact).
Prints the geomean regret (chosen / best time; 1.0 = always the best), the share of shapes routed
to their best, the worst shapes, and how many choices had no measurement at the shape (a
configuration the shape did not measure: unknown, not counted in the regret).
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "libraries", "runtime"))
from cake_library.route import Router  # noqa: E402


def loo(definition, neighbours=None, candidates=1):
    points = definition["table"]["points"]
    Router(definition)                       # checks the variants once
    out = []
    for i, p in enumerate(points):
        if not p["ms"]:
            continue
        table = dict(definition["table"], points=points[:i] + points[i + 1:])
        if neighbours:
            table["neighbours"] = neighbours
        r = Router(dict(definition, table=table), variants_checked=True)
        shape = (p["B"], p["N"], p["D"], p["K"], p["dtype"])
        cfg = r.route(*shape)["config"]
        best = min(p["ms"].values())
        t = p["ms"].get(cfg)
        if candidates > 1:
            times = {c["config"]: p["ms"][c["config"]] for c in r.candidates(*shape, candidates)
                     if c["config"] in p["ms"]}
            cfg = min(times, key=times.get) if times else cfg
            t = times.get(cfg)
        out.append((p, cfg, t, best))
    return out


def load(path):
    """A built library's library.json, else a definition folder's variants.json + table.json."""
    built = os.path.join(path, "library.json")
    if os.path.isfile(built):
        with open(built) as f:
            return json.load(f)
    with open(os.path.join(path, "variants.json")) as f:
        definition = json.load(f)
    with open(os.path.join(path, "table.json")) as f:
        definition["table"] = json.load(f)
    return definition


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True, help="a built library (library.json) or a definition folder")
    ap.add_argument("--table", help="a routing table to use instead of the library's")
    ap.add_argument("--neighbours", type=int)
    ap.add_argument("--candidates", type=int, default=1, help="the fastest of the n best-ranked (autotuning)")
    ap.add_argument("--worst", type=int, default=10)
    args = ap.parse_args()
    try:
        definition = load(args.library)
        if args.table:
            with open(args.table) as f:
                definition["table"] = json.load(f)
        rows = loo(definition, args.neighbours, args.candidates)
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"route_cv.py: {type(e).__name__}: {e}")
    if not rows:
        sys.exit("route_cv.py: the table has no measured point")
    known = [(p, c, t, b) for p, c, t, b in rows if t is not None]
    regret = [t / b for _, _, t, b in known]
    g = math.exp(sum(map(math.log, regret)) / len(regret))
    print(f"{len(rows)} shapes: geomean regret {g:.3f} (chosen / best time), best chosen on "
          f"{sum(1 for r in regret if r == 1.0)}, chosen not measured at the shape: {len(rows) - len(known)}")
    for p, c, t, b in sorted(known, key=lambda r: -r[2] / r[3])[:args.worst]:
        print(f"  B{p['B']} N{p['N']} D{p['D']} K{p['K']} {p['dtype']}: {c} {t * 1e3:.1f} us, "
              f"best {min(p['ms'], key=p['ms'].get)} {b * 1e3:.1f} us ({t / b:.2f}x)")


if __name__ == "__main__":
    main()
