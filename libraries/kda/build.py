#!/usr/bin/env python3
"""Builds the KDA library folder: every variant's IR, cubin and manifest, and library.json.

    python3 libraries/kda/build.py --out DIR [--tools build/bin] [--jobs 2]
    agent/cake library build --definition libraries/kda --out DIR         (the same)

Each kernel is verified (cake-opt --cake-verify) and compiled (cake-translate --emit=cubin); one
that fails stops the build with the tool's diagnostic. A variant is one kernel, or several launched
in order (the `wy` family's two passes; a kernel two variants share is built once). library.json
names the variants with their kernels' manifests, the routing rule of rule.json beside this script
and the default variant.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import recurrent  # noqa: E402
import wy  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "..", "runtime"))
from cake_library import kda as kda_runtime  # noqa: E402

FAMILIES = {"recurrent": recurrent, "wy": wy}


def kernels(fam, p):
    """[(kernel name, IR)] of a variant, in launch order."""
    m = FAMILIES[fam]
    return m.stages(p) if hasattr(m, "stages") else [(m.name(p), m.generate(p))]


def compile_one(tools, kdir, name, ir, index_bits=0):
    src = os.path.join(kdir, name + ".mlir")
    with open(src, "w") as f:
        f.write(ir)
    r = subprocess.run([os.path.join(tools, "cake-opt"), src, "--cake-verify", "-o", os.devnull],
                       capture_output=True, text=True)
    if r.returncode == 0:
        r = subprocess.run([os.path.join(tools, "cake-translate"), src, "--emit=cubin",
                            "-o", os.path.join(kdir, name + ".cubin"),
                            "--manifest", os.path.join(kdir, name + ".json"),
                            "--ptxas-log", os.path.join(kdir, name + ".ptxas.log")]
                           + ([f"--index-bitwidth={index_bits}"] if index_bits else []),
                           capture_output=True, text=True)
    return name, r.returncode, r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--tools", default=os.path.join(HERE, "..", "..", "build", "bin"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dtypes", default="bfloat16", help="bfloat16 only (FlashKDA's interface)")
    ap.add_argument("--index-bits", type=int, default=0, choices=(0, 32, 64),
                    help="lower every kernel's `index` to this width (default: the kernels' own, "
                         "64). For measurements only: the KDA launcher does not check the 32-bit "
                         "manifests' bounds, and the 32-bit build measured slower "
                         "(bench/results/2026-12-04-kda-index32)")
    args = ap.parse_args()
    if args.jobs < 1 or set(filter(None, args.dtypes.split(","))) - {"bfloat16"}:
        print(f"build.py: bad arguments (jobs {args.jobs}, dtypes {args.dtypes!r}: KDA serves "
              "bfloat16 only)", file=sys.stderr)
        sys.exit(2)
    kdir = os.path.join(args.out, "kernels")
    os.makedirs(kdir, exist_ok=True)
    todo = [(f, p, kernels(f, p)) for f, m in FAMILIES.items() for p in m.variants()]
    unique = dict(kv for _, _, ks in todo for kv in ks)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        done = list(pool.map(lambda kv: compile_one(args.tools, kdir, *kv, args.index_bits),
                             unique.items()))
    manifests = {}
    for name, rc, err in done:
        if rc != 0:
            print(f"build.py: {name} failed:\n{err.strip()[-2000:]}", file=sys.stderr)
            sys.exit(1)
        with open(os.path.join(kdir, name + ".json")) as f:
            manifests[name] = json.load(f)["kernels"][0]
    variants = []
    for fam, p, ks in todo:
        m = FAMILIES[fam]
        v = {"name": m.name(p), "family": fam, "params": p,
             "kernels": [{"name": k, "manifest": manifests[k]} for k, _ in ks]}
        if hasattr(m, "MAX_NEG_BOUND"):   # e^-G of a chunk stays finite only for bounded gates
            v["max_neg_bound"] = m.MAX_NEG_BOUND
        if hasattr(m, "stages"):          # sizes of the passes' grid and workspace (kda_fwd)
            v["chunk"] = p.get("chunk", m.C)
        variants.append(v)
    with open(os.path.join(HERE, "rule.json")) as f:
        rule = json.load(f)
    try:
        kda_runtime.check_definition({"op": "kda_fwd", "variants": variants, **rule})
    except ValueError as e:
        print(f"build.py: rule.json: {e}", file=sys.stderr)
        sys.exit(1)
    with open(os.path.join(args.out, "library.json"), "w") as f:
        json.dump({"op": "kda_fwd", "variants": variants, **rule}, f, indent=1)
    print(f"build.py: {len(variants)} KDA variants ({len(unique)} kernels) in {kdir}")


if __name__ == "__main__":
    main()
