#!/usr/bin/env python3
"""What a symbol-specialization A/B builds and times: for each shape, its fastest table
configurations (or, for a shape outside the table, the router's candidates), each also built with
D fixed and with every size fixed at compile time (build.py --specialize; the kernel's
`specialize`). Nothing is built here.

    python3 bench/library/specialize_requests.py --shapes rows.json [--per-shape 3] \
        --specialize spec.json --only only.json > subset.json

`--shapes`: a JSON list of {B, N, D, K, dtype} (rows.json rows qualify). Writes build.py's
--specialize list, a tune --only list ({dtype, B, N, D, K, configs}: the generic configurations and
their specialized ones) and prints build.py's --subset list (the generic variants). The sizes fixed
are the kernel's own symbols at the shape (route.py's launch_sizes: a staged family's D is padded),
so a specialized kernel is legal exactly where its generic one runs with those sizes.
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
KMEANS = os.path.join(ROOT, "libraries", "kmeans")
sys.path.insert(0, KMEANS)
sys.path.insert(0, os.path.join(ROOT, "libraries", "runtime"))
import build  # noqa: E402
from cake_library.route import Router, launch_sizes  # noqa: E402


def kernel_symbols(p, tools):
    """The `symbols` the variant's kernel declares (from its generated IR)."""
    m = re.search(r"symbols = \[([^\]]*)\]", build.generate(p, tools))
    return [s.strip().strip('"') for s in m.group(1).split(",") if s.strip()]


def generic_configs(router, table, s, per_shape):
    """The shape's fastest configurations in the table, else the router's first candidates."""
    key = (s["dtype"], s["B"], s["N"], s["D"], s["K"])
    point = next((p for p in table["points"] if (p["dtype"], p["B"], p["N"], p["D"], p["K"]) == key), None)
    if point and point["ms"]:
        return sorted(point["ms"], key=point["ms"].get)[:per_shape]
    return [c["config"] for c in router.candidates(s["B"], s["N"], s["D"], s["K"], s["dtype"], per_shape)]


def requests(shapes, variants, table, plan_now, tools, per_shape):
    """(--specialize list, --only list, --subset list)."""
    router = Router({"op": "kmeans_assign", "variants": variants, "table": table})
    params = {build.variant_name(p): p for p in plan_now}
    spec, only, subset = [], [], set()
    for s in shapes:
        legal = {v["config"]: v for v in router.legal(s["B"], s["N"], s["D"], s["K"], s["dtype"])}
        configs = []
        for cfg in generic_configs(router, table, s, per_shape):
            v = legal.get(cfg)
            if v is None or v["name"] not in params:
                continue
            subset.add(v["name"])
            sizes = launch_sizes(v, s["B"], s["N"], s["D"], s["K"])
            declared = kernel_symbols(params[v["name"]], tools)
            configs.append(cfg)
            for fixed in ({"D": sizes["D"]}, {k: sizes[k] for k in declared if k in sizes}):
                spec.append({"variant": v["name"], "sizes": fixed})
                configs.append(build.config_name(dict(params[v["name"]], specialize=fixed)))
        only.append({k: s[k] for k in ("dtype", "B", "N", "D", "K")} | {"configs": configs})
    unique = {json.dumps(r, sort_keys=True): r for r in spec}
    return list(unique.values()), only, sorted(subset)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", required=True)
    ap.add_argument("--per-shape", type=int, default=3)
    ap.add_argument("--specialize", required=True, help="output: build.py's --specialize list")
    ap.add_argument("--only", required=True, help="output: the tune phase's --only list")
    ap.add_argument("--tools", default=os.path.join(ROOT, "build", "bin"))
    args = ap.parse_args()
    try:
        with open(args.shapes) as f:
            shapes = json.load(f)
        with open(os.path.join(KMEANS, "variants.json")) as f:
            variants = json.load(f)["variants"]
        with open(os.path.join(KMEANS, "table.json")) as f:
            table = json.load(f)
        plan_now = build.with_twins(build.plan(sorted({s["dtype"] for s in shapes}), 8))
        spec, only, subset = requests(shapes, variants, table, plan_now, args.tools, args.per_shape)
    except (OSError, ValueError, KeyError, TypeError) as e:   # ValueError: bad JSON, NoKernel
        sys.exit(f"specialize_requests: {args.shapes}: {type(e).__name__}: {e}")
    with open(args.specialize, "w") as f:
        json.dump(spec, f, indent=0)
    with open(args.only, "w") as f:
        json.dump(only, f, indent=0)
    json.dump(subset, sys.stdout)
    print(f"specialize_requests: {len(shapes)} shapes, {len(subset)} generic variants, {len(spec)} "
          f"specialized", file=sys.stderr)


if __name__ == "__main__":
    main()
