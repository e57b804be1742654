#!/usr/bin/env python3
"""The tune list (kmeans_bench.py --only, with --heldout) that measures the grid's held-out shapes
richly enough to judge routers on them: per held-out shape, the router's --rank best-ranked
configurations and the fastest configuration of each of its --neighbours nearest table points
(where legal), each with its 32-bit twin. The measured points form an evaluation table that is
never merged into the routing table (they would stop being held out); heldout_regret.py scores a
router against it.

    python3 bench/library/heldout_finalists.py [--library libraries/kmeans] [--rank 12] \
        [--neighbours 8] > heldout-finalists.json
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KMEANS = os.path.join(HERE, "..", "..", "libraries", "kmeans")
sys.path.insert(0, HERE)
from route_cv import load  # noqa: E402
from cake_library.route import TWIN_SUFFIX, NoKernel, Router  # noqa: E402


def finalists(definition, shapes, rank, neighbours):
    router = Router(definition)
    out = []
    for s in shapes:
        key = (s["B"], s["N"], s["D"], s["K"], s["dtype"])
        try:
            legal = {v["config"] for v in router.legal(*key)}
        except NoKernel:
            continue
        picked = [c for c, _ in router.ranking(*key)[:rank]]
        picked += [c["config"] for c in router.candidates(*key, rank)]
        for _, p in router.nearest(*key)[:neighbours]:
            best = sorted((c for c in p["ms"] if c in legal), key=p["ms"].get)[:1]
            picked += best
        configs = []
        for c in picked:
            base = c[:-len(TWIN_SUFFIX)] if c.endswith(TWIN_SUFFIX) else c
            configs += [x for x in (base, base + TWIN_SUFFIX) if x in legal]
        out.append({k: s[k] for k in ("dtype", "B", "N", "D", "K")} | {"configs": list(dict.fromkeys(configs))})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", default=KMEANS, help="a definition folder or a built library")
    ap.add_argument("--grid", default=os.path.join(KMEANS, "grid.json"))
    ap.add_argument("--rank", type=int, default=12)
    ap.add_argument("--neighbours", type=int, default=8)
    args = ap.parse_args()
    try:
        definition = load(args.library)
        with open(args.grid) as f:
            shapes = [s for s in json.load(f)["shapes"] if s["heldout"]]
        rows = finalists(definition, shapes, args.rank, args.neighbours)
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"heldout_finalists.py: {type(e).__name__}: {e}")
    json.dump(rows, sys.stdout, indent=0)
    print()
    print(f"heldout_finalists.py: {len(rows)} held-out shapes, {sum(len(r['configs']) for r in rows)} "
          "configurations to time", file=sys.stderr)


if __name__ == "__main__":
    main()
