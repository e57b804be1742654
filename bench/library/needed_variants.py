#!/usr/bin/env python3
"""The assignment variants one GPU call launches, from the library's definition alone (the committed
variants.json and table.json: nothing built), for `build.py --subset`:

    python3 bench/library/needed_variants.py [--grid libraries/kmeans/grid.json] \
        [--only tune-list.json ...] [--candidates N (default: the autotuner's)] [--evolved libraries/kmeans/evolved.json] > subset.json

Per grid shape, the router's pick and the other candidates its first-call autotuning times
(prune_package.needed, the same rule a pruned package keeps); per --only list (a tune's
{dtype, B, N, D, K, configs}), every legal variant of the listed configurations; and every variant
of the configurations evolved.json adds, since a tune that measures them may make the router pick
them. A library built from the subset must route the grid's shapes as the whole library does, and
holding the kernels the whole library picks is not enough: the router scores only the
configurations a library has (a twin's 64-bit partner stands for it, a load-width group by its
widest legal member), so a subset without them ranks others first (call D, session 47: 55 of the
grid's 420 shapes, 65 of 84 held-out rows on another kernel). `routing_closure` therefore checks
the subset's routes against the whole library's and, for a shape that differs, adds the twins and
load-width groups of its candidates, then every legal variant of it, and a variant of every
member of its configurations' load-width groups (the router judges a group at the neighbours by
members the shape cannot take: session 48, the last 7 grid shapes routed otherwise); a shape
still routed otherwise is named on stderr and the exit status is 1.
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
from cake_library.route import TWIN_SUFFIX, NoKernel, Router, width_groups  # noqa: E402
import build  # noqa: E402


def _base(config):
    return config[:-len(TWIN_SUFFIX)] if config.endswith(TWIN_SUFFIX) else config


def _candidate_kernels(router, key, count):
    try:
        return [c["kernel"] for c in router.candidates(*key, count)]
    except NoKernel as e:
        return str(e)


def routing_closure(library, names, shapes, count, rounds=3):
    """(names grown, [shape keys still routed otherwise]): variants added to `names` until a
    library of only those routes every shape to the kernel, and the same autotuning candidates
    in the same order, as the whole `library`."""
    variants = library["variants"]
    full = Router(library)
    group = {cfg: g for cfg, (g, _) in width_groups(variants).items()}
    config_of = {v["name"]: v["config"] for v in variants}
    want = {}
    for s in shapes:
        key = (s["B"], s["N"], s["D"], s["K"], s["dtype"])
        want[key] = _candidate_kernels(full, key, count)
    narrowest = {}       # configuration -> its narrowest variant's name (per dtype: the key has it)
    for v in sorted(variants, key=lambda v: (v["max_d"] is None, v["max_d"] or 0)):
        narrowest.setdefault((v["dtype"], v["config"]), v["name"])
    names, wrong = set(names), []
    for level in range(rounds + 1):
        sub = Router(dict(library, variants=[v for v in variants if v["name"] in names]), variants_checked=True)
        wrong = [key for key, kernels in want.items() if _candidate_kernels(sub, key, count) != kernels]
        if not wrong or level == rounds:
            break
        for key in wrong:
            legal = full.legal(*key)
            if level == 0:       # the candidates' twins and load-width groups
                bases = {_base(config_of[k]) for k in want[key] if k in config_of}
                groups = {group.get(b, b) for b in bases}
                names |= {v["name"] for v in legal if _base(v["config"]) in bases
                          or group.get(_base(v["config"])) in groups}
            else:                # everything that serves the shape
                names |= {v["name"] for v in legal}
            # A load-width group is judged at the neighbours by members the shape cannot take
            # (an odd D takes v = 1, a neighbour measured v = 2): the router knows a
            # configuration's group only from a variant of it, so each member needs one (its
            # narrowest D class).
            members = {group.get(v["config"]) for v in legal} - {None}
            names |= {name for (dtype, cfg), name in narrowest.items()
                      if dtype == key[4] and group.get(cfg) in members}
    return names, wrong


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default=os.path.join(KMEANS, "variants.json"))
    ap.add_argument("--table", default=os.path.join(KMEANS, "table.json"))
    ap.add_argument("--grid", action="append", default=[],
                    help="a grid file ({\"shapes\": [...]}); repeatable (default libraries/kmeans/grid.json)")
    ap.add_argument("--only", action="append", default=[], help="a tune list; repeatable")
    ap.add_argument("--candidates", type=int, default=DEFAULT_CANDIDATES)
    ap.add_argument("--no-grid", action="store_true",
                    help="only the --only lists' and evolved.json's variants (a tune; no final of the grid)")
    ap.add_argument("--evolved", default=build.EVOLVED)
    args = ap.parse_args()
    try:
        with open(args.variants) as f:
            variants = json.load(f)["variants"]
        with open(args.table) as f:
            library = {"op": "kmeans_assign", "variants": variants, "table": json.load(f)}
        grid = []
        for path in [] if args.no_grid else args.grid or [os.path.join(KMEANS, "grid.json")]:
            with open(path) as f:
                grid += json.load(f)["shapes"]
        names = needed(library, grid, None, args.candidates)
        for path in args.only:
            with open(path) as f:
                only = {(o["dtype"], o["B"], o["N"], o["D"], o["K"]): o["configs"] for o in json.load(f)}
            shapes = [dict(zip(("dtype", "B", "N", "D", "K"), k)) for k in only]
            names |= needed(library, shapes, only)
        if os.path.exists(args.evolved):
            with open(args.evolved) as f:
                added = [build.evolved_params(e) for e in json.load(f).get("configs", [])]
            names |= {build.variant_name(p) for p in build.with_twins(added)}
        names, wrong = routing_closure(library, names, grid, args.candidates)
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"needed_variants.py: {type(e).__name__}: {e}")
    json.dump(sorted(names), sys.stdout, indent=0)
    print()
    print(f"needed_variants.py: {len(names)} of {len(variants)} variants", file=sys.stderr)
    if wrong:
        print(f"needed_variants.py: {len(wrong)} grid shapes still routed otherwise than by the whole "
              f"library (first: {wrong[0]})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
