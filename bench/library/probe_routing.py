#!/usr/bin/env python3
"""What routing costs on shapes the table never saw, measured: fresh probe shapes (the grid's
distribution, another seed, none of the grid's shapes, so the held-out part stays unmeasured),
each timed at the router's choice and its nearest rivals in one GPU call.

    python3 bench/library/probe_routing.py prepare --library .device/klib --count 40 --top 12 \
        --grid-out probe-grid.json --only-out probe-only.json
    # GPU: GRID=probe-grid.json ONLY=probe-only.json TAG=probe bash bench/library/run_h200.sh tune
    python3 bench/library/probe_routing.py score --library .device/klib --tune tune-probe-0.json

`prepare` lists per probe shape the `--top` configurations the router ranks best (its ranking:
one per load-width group, 64-bit builds), their 32-bit twins where legal, and the routed
configuration itself. `score` prints the regret of the routed configuration (its time over the
best time measured at the shape; 1.0 = the router chose the fastest), per dtype and overall: the
routing loss of held-out shapes, without measuring a held-out shape. The tune output is also a
set of ordinary table points (merge_tune.py), which makes the table denser.
"""
import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "libraries", "kmeans"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "libraries", "runtime"))
import grid as kgrid  # noqa: E402
from cake_library.route import NoKernel, Router, TWIN_SUFFIX  # noqa: E402


def _key(s):
    return (s["dtype"], s["B"], s["N"], s["D"], s["K"])


def _router(library, table):
    with open(os.path.join(library, "library.json")) as f:
        definition = json.load(f)
    if table:
        with open(table) as f:
            definition["table"] = json.load(f)
    return Router(definition)


def prepare(args):
    router = _router(args.library, args.table)
    with open(args.grid) as f:
        known = {_key(s) for s in json.load(f)["shapes"]}
    known |= {_key(p) for p in router.points}
    shapes, only = [], []
    for s in kgrid.generate(count=args.count * 4, seed=args.seed, heldout=0.0):
        if len(shapes) == args.count or _key(s) in known:
            continue
        try:
            routed = router.route(s["B"], s["N"], s["D"], s["K"], s["dtype"])["config"]
            legal = {v["config"] for v in router.legal(s["B"], s["N"], s["D"], s["K"], s["dtype"])}
        except NoKernel:
            continue
        ranked = [c for c, _ in router.ranking(s["B"], s["N"], s["D"], s["K"], s["dtype"])][:args.top]
        configs = set(ranked) | {c + TWIN_SUFFIX for c in ranked if c + TWIN_SUFFIX in legal} | {routed}
        shapes.append(dict(s, heldout=False))
        only.append(dict(s, configs=sorted(configs), routed=routed))
    with open(args.grid_out, "w") as f:
        json.dump({"seed": args.seed, "count": len(shapes), "probe": True, "shapes": shapes}, f, indent=0)
    with open(args.only_out, "w") as f:
        json.dump(only, f, indent=0)
    pairs = sum(len(o["configs"]) for o in only)
    print(f"{len(shapes)} probe shapes, {pairs} (shape, configuration) pairs -> {args.grid_out}, {args.only_out}")


def score(args):
    router = _router(args.library, args.table)
    points = []
    for name in args.tune:
        with open(name) as f:
            points += json.load(f)["points"]
    by_dtype, worst = {}, []
    for p in points:
        routed = router.route(p["B"], p["N"], p["D"], p["K"], p["dtype"])["config"]
        if routed not in p["ms"]:
            print(f"  B{p['B']} N{p['N']} D{p['D']} K{p['K']} {p['dtype']}: {routed} not measured", file=sys.stderr)
            continue
        best = min(p["ms"], key=p["ms"].get)
        regret = p["ms"][routed] / p["ms"][best]
        by_dtype.setdefault(p["dtype"], []).append(regret)
        worst.append((regret, p, routed, best))
    every = [r for v in by_dtype.values() for r in v]
    if not every:
        sys.exit("probe_routing.py: no probe point measured its routed configuration")
    geo = lambda v: math.exp(sum(map(math.log, v)) / len(v))  # noqa: E731
    print(f"{len(every)} probe shapes: routing regret geomean {geo(every):.3f}, routed to the "
          f"fastest measured on {sum(r == 1.0 for r in every)}")
    for dtype, v in sorted(by_dtype.items()):
        print(f"  {dtype}: {len(v)} shapes, regret {geo(v):.3f}")
    for regret, p, routed, best in sorted(worst, key=lambda e: -e[0])[:args.worst]:
        print(f"  B{p['B']} N{p['N']} D{p['D']} K{p['K']} {p['dtype']}: {routed} {p['ms'][routed] * 1e3:.1f} us, "
              f"best {best} {p['ms'][best] * 1e3:.1f} us ({regret:.2f}x)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("prepare", "score"):
        p = sub.add_parser(name)
        p.add_argument("--library", required=True, help="a built library (library.json)")
        p.add_argument("--table", help="a routing table to use instead of the library's")
    pre = sub.choices["prepare"]
    pre.add_argument("--grid", default=os.path.join(HERE, "..", "..", "libraries", "kmeans", "grid.json"))
    pre.add_argument("--count", type=int, default=40)
    pre.add_argument("--seed", type=int, default=7331)
    pre.add_argument("--top", type=int, default=12)
    pre.add_argument("--grid-out", required=True)
    pre.add_argument("--only-out", required=True)
    sc = sub.choices["score"]
    sc.add_argument("--tune", nargs="+", required=True, help="kmeans_bench.py tune outputs of the probe grid")
    sc.add_argument("--worst", type=int, default=8)
    args = ap.parse_args()
    if args.cmd == "prepare" and (args.count < 1 or args.top < 1):
        sys.exit("probe_routing.py: --count and --top must be >= 1")
    try:
        (prepare if args.cmd == "prepare" else score)(args)
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"probe_routing.py: {type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
