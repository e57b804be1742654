#!/usr/bin/env python3
"""Puts a new routing table into an exported KMeans package, where it was measured (the GPU
machine): library.json's "table" replaced, the C++ dispatcher's LibraryTable.inc generated again
and the dispatcher rebuilt with the package's own dispatch_src/build.sh (a C++ compiler and cuda.h
needed; without them the package's Python launcher routes from library.json). Then lists the grid
shapes whose routed kernel or autotuning candidates have no cubin in the package (a pruned one),
so that a call reports them instead of failing on them.

    python3 bench/library/retable_package.py --package PKG --table table.json [--grid grid.json]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "libraries", "runtime", "dispatch"))
sys.path.insert(0, HERE)
from prune_package import needed  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--package", required=True, help="an export's folder (holds cake_library/)")
    ap.add_argument("--table", required=True)
    ap.add_argument("--grid", default=os.path.join(ROOT, "libraries", "kmeans", "grid.json"))
    args = ap.parse_args()
    pkg = os.path.join(args.package, "cake_library")
    lib = os.path.join(pkg, "library")
    try:
        with open(os.path.join(lib, "library.json")) as f:
            definition = json.load(f)
        with open(args.table) as f:
            definition["table"] = json.load(f)
        with open(args.grid) as f:
            shapes = json.load(f)["shapes"]
    except (OSError, ValueError) as e:
        sys.exit(f"retable_package.py: {type(e).__name__}: {e}")
    import generate  # libraries/runtime/dispatch/generate.py
    src = os.path.join(pkg, "dispatch_src")
    if not os.path.isfile(os.path.join(src, "build.sh")):
        sys.exit(f"retable_package.py: {src} has no build.sh: not a package exported with its dispatcher")
    with open(os.path.join(src, "LibraryTable.inc"), "w") as f:
        f.write(generate.generate(definition))
    with open(os.path.join(lib, "library.json"), "w") as f:
        json.dump(definition, f, indent=0)
    r = subprocess.run(["sh", os.path.join(src, "build.sh"), os.path.join(lib, "libcake_library.so")],
                       capture_output=True, text=True)
    print(f"retable_package.py: table of {len(definition['table'].get('points', []))} points; dispatcher "
          + ("rebuilt" if r.returncode == 0 else f"NOT rebuilt (rc {r.returncode}): {r.stderr[-500:]}"))
    have = {n[:-len(".cubin")] for n in os.listdir(os.path.join(lib, "kernels")) if n.endswith(".cubin")}
    missing = sorted(needed(definition, shapes, None) - have)
    print(f"retable_package.py: {len(missing)} routed or candidate kernels of the grid have no cubin"
          + (f": {missing[:8]}" if missing else ""))
    return 0 if r.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
