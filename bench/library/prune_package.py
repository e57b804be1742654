#!/usr/bin/env python3
"""Copies an exported KMeans package keeping only the cubins a GPU call will launch.

    python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-call \
        [--grid libraries/kmeans/grid.json] [--only finalists.json]

The device tool carries at most 64 MiB and a package with both index widths is ~47 MiB of cubins.
Kept: the auxiliary kernels (update, staging, split-K finish, |c|^2), and per grid shape the
kernels the Python API may launch (a final: the router's pick and the other candidates its first-call autotuning
times, --candidates, default autotune.py's) or, with --only, every legal variant of the listed
configurations (a tune). The
manifests and library.json stay whole: the dispatcher loads a cubin when it first launches it,
so a pruned kernel is only an error if something launches it.
"""
import argparse
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "libraries", "runtime"))
from cake_library.autotune import DEFAULT_CANDIDATES  # noqa: E402
from cake_library.route import NoKernel, Router, auxiliary_kernels  # noqa: E402


def needed(library, shapes, only, candidates=DEFAULT_CANDIDATES):
    router = Router(library)
    keep = {v["name"] for v in auxiliary_kernels(library)}
    for s in shapes:
        sizes = (s["B"], s["N"], s["D"], s["K"], s["dtype"])
        try:
            if only is None:
                keep |= {c["kernel"] for c in router.candidates(*sizes, max(candidates, 1))}
            else:
                configs = set(only.get((s["dtype"], s["B"], s["N"], s["D"], s["K"]), ()))
                keep |= {v["name"] for v in router.legal(*sizes) if v["config"] in configs}
        except NoKernel:
            pass          # the call reports the shape itself
    return keep


def main():
    try:
        prune()
    except (OSError, ValueError, KeyError) as e:   # a missing package, grid or list; bad JSON
        sys.exit(f"prune_package.py: {type(e).__name__}: {e}")


def prune():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--package", required=True, help="an export's folder (holds cake_library/)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--grid", default=os.path.join(HERE, "..", "..", "libraries", "kmeans", "grid.json"))
    ap.add_argument("--only", default="", help="tune: {dtype, B, N, D, K, configs} list")
    ap.add_argument("--candidates", type=int, default=DEFAULT_CANDIDATES,
                    help="a final: the autotuning candidates kept per shape (1: the routed kernel)")
    args = ap.parse_args()
    lib_dir = os.path.join(args.package, "cake_library", "library")
    with open(os.path.join(lib_dir, "library.json")) as f:
        library = json.load(f)
    with open(args.grid) as f:
        shapes = json.load(f)["shapes"]
    only = None
    if args.only:
        with open(args.only) as f:
            only = {(o["dtype"], o["B"], o["N"], o["D"], o["K"]): o["configs"] for o in json.load(f)}
        shapes = [s for s in shapes if (s["dtype"], s["B"], s["N"], s["D"], s["K"]) in only]
    keep = needed(library, shapes, only, args.candidates)
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    shutil.copytree(args.package, args.out,
                    ignore=lambda d, names: [n for n in names if n.endswith(".cubin")
                                             and n[:-len(".cubin")] not in keep])
    kept = sum(n.endswith(".cubin") for n in os.listdir(os.path.join(args.out, "cake_library", "library", "kernels")))
    print(f"prune_package.py: {kept} of the package's cubins kept ({len(shapes)} shapes) in {args.out}")


if __name__ == "__main__":
    main()
