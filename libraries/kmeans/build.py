#!/usr/bin/env python3
"""Builds the KMeans library folder: every variant's IR, cubin and manifest, and library.json.

    python3 libraries/kmeans/build.py --out DIR [--tools build/bin]
        [--jobs 2] [--dtypes float16,bfloat16,float32] [--max-chunks 8] [--table table.json]

For each dtype: the `simt` family (any D; 2, 4, 8 or 16 points per block), the `splitd` family
(any D, streamed in groups of 1 or 2 chunks; bk 128/256; persistent or per tile), and for each D class
(1..max-chunks column chunks) of the `wgmma` family the searched configurations: the tile
of centroids (bk 64/128/256), the consumer warpgroups (1 or 2) and the grid style (persistent or
one block per tile), each with the deepest pipelines that fit in shared memory. Every variant is
verified (cake-opt --cake-verify) and compiled by cake-translate; one that fails stops the build with the
tool's diagnostic. `--table` (default: table.json beside this script, when present) is the routing
table learned from measurements (libraries/kmeans/README.md).
"""
import argparse
import concurrent.futures
import itertools
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import family  # noqa: E402

CONFIGS = [(bk, wg, grid) for grid in ("persistent", "tiles") for wg in (2, 1) for bk in (128, 256, 64)]


def family_of(p):
    return "simt" if "ppb" in p else ("splitd" if "st" in p else "wgmma")


def config_name(p):
    f = family_of(p)
    if f == "simt":
        return "simt_w{ppb}".format(**p)
    if f == "splitd":
        return "sd{g}_k{bk}_w{wg}_{gr}".format(gr=p["grid"][0], **p)
    return "k{bk}_w{wg}_{g}".format(g=p["grid"][0], **p)


def variant_name(p):
    return {"simt": family.simt_name, "splitd": family.splitd_name, "wgmma": family.name}[family_of(p)](p)


def generate(p):
    return {"simt": family.generate_simt, "splitd": family.generate_splitd,
            "wgmma": family.generate}[family_of(p)](p)


def describe(p, manifest):
    """The variant's entry in library.json: what the router needs to know about it."""
    f = family_of(p)
    return {"name": variant_name(p), "family": f, "dtype": p["dtype"],
            "max_d": family.max_d(p) if f == "wgmma" else None,
            "d_align": 1 if f == "simt" else family.d_align(p["dtype"]),
            "config": config_name(p), "params": p,
            "constraints": manifest.get("constraints", []), "manifest": manifest}


def deepest(dtype, chunks, bk, wg, grid):
    """The variant with the most pipeline stages that fits, or None."""
    for xs, cs in ((2, 4), (2, 3), (2, 2), (1, 4), (1, 3), (1, 2)):
        p = {"dtype": dtype, "chunks": chunks, "bk": bk, "wg": wg, "xs": xs, "cs": cs, "grid": grid}
        if family.legal(p):
            return p
    return None


def plan(dtypes, max_chunks):
    out = list(family.simt_variants(dtypes))
    for dtype in dtypes:
        for g, bk, grid in itertools.product((1, 2), (128, 256), ("persistent", "tiles")):
            for st in (4, 3, 2):
                p = {"dtype": dtype, "g": g, "bk": bk, "wg": 2, "st": st, "grid": grid}
                if family.splitd_legal(p):
                    out.append(p)
                    break
    for dtype in dtypes:
        for chunks in range(1, max_chunks + 1):
            for bk, wg, grid in CONFIGS:
                p = deepest(dtype, chunks, bk, wg, grid)
                if p:
                    out.append(p)
    return out


def compile_one(tools, kdir, p):
    name = variant_name(p)
    src = os.path.join(kdir, name + ".mlir")
    with open(src, "w") as f:
        f.write(generate(p))
    r = subprocess.run([os.path.join(tools, "cake-opt"), src, "--cake-verify", "-o", os.devnull],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return p, r.returncode, r.stderr
    cmd = [os.path.join(tools, "cake-translate"), src, "--emit=cubin", "-o", os.path.join(kdir, name + ".cubin"),
           "--manifest", os.path.join(kdir, name + ".json"),
           "--ptxas-log", os.path.join(kdir, name + ".ptxas.log")]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return p, r.returncode, r.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--tools", default=os.path.join(HERE, "..", "..", "build", "bin"),
                    help="folder holding cake-opt and cake-translate")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dtypes", default="float16,bfloat16,float32")
    ap.add_argument("--max-chunks", type=int, default=8)
    ap.add_argument("--table", default=os.path.join(HERE, "table.json"))
    args = ap.parse_args()
    dtypes = [d for d in args.dtypes.split(",") if d]
    bad = [d for d in dtypes if d not in family.DTYPES]
    if bad or args.jobs < 1 or args.max_chunks < 1:
        sys.exit(f"build.py: bad arguments (dtypes {bad}, jobs {args.jobs}, max-chunks {args.max_chunks})")
    kdir = os.path.join(args.out, "kernels")
    os.makedirs(kdir, exist_ok=True)
    todo = plan(dtypes, args.max_chunks)
    variants, failed = [], []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for p, rc, err in pool.map(lambda p: compile_one(args.tools, kdir, p), todo):
            if rc != 0:
                failed.append((variant_name(p), err.strip()[-2000:]))
                continue
            with open(os.path.join(kdir, variant_name(p) + ".json")) as f:
                variants.append(describe(p, json.load(f)["kernels"][0]))
    if failed:
        for name, err in failed:
            print(f"build.py: {name} failed:\n{err}", file=sys.stderr)
        sys.exit(1)
    table = {}
    if args.table and os.path.exists(args.table):
        with open(args.table) as f:
            table = json.load(f)
    variants.sort(key=lambda v: v["name"])
    with open(os.path.join(args.out, "library.json"), "w") as f:
        json.dump({"op": "kmeans_assign", "family": "libraries/kmeans/family.py",
                   "variants": variants, "table": table}, f, indent=1)
    # What routing needs, without the manifests: the definition folder commits this file so
    # that `cake library route` answers from the definition without building anything.
    with open(os.path.join(args.out, "variants.json"), "w") as f:
        json.dump({"op": "kmeans_assign", "variants": [
            {k: v for k, v in x.items() if k != "manifest"} for x in variants]}, f, indent=0)
    print(f"build.py: {len(variants)} kernels in {kdir}")


if __name__ == "__main__":
    main()
