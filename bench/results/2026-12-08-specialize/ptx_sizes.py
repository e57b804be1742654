#!/usr/bin/env python3
"""CPU-side evidence for symbol specialization (no GPU): for each row of shapes.json, the kernel
call G routed it to (bench/results/2026-12-07-router-heldout/rows.json) compiled three ways,
generic, D fixed and every size fixed (cake-translate --specialize), with its PTX instruction count
and ptxas's registers per thread. Fewer instructions and registers are a hint, not a measurement:
only the GPU call (callV.sh) says whether the kernels get faster.

    python3 bench/results/2026-12-08-specialize/ptx_sizes.py [--tools build/bin] > ptx-sizes.txt
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "libraries", "kmeans"))
sys.path.insert(0, os.path.join(ROOT, "libraries", "runtime"))
sys.path.insert(0, os.path.join(ROOT, "bench", "library"))
import build  # noqa: E402
from cake_library.route import launch_sizes  # noqa: E402
from specialize_requests import kernel_symbols  # noqa: E402


def compiled(tools, src, sizes, tmp):
    """(PTX instruction lines, registers per thread) of `src` with `sizes` fixed."""
    cmd = [os.path.join(tools, "cake-translate"), src, "--emit=cubin", "-o", os.path.join(tmp, "k.cubin"),
           "--ptxas-log", os.path.join(tmp, "k.log")]
    spec = ["--specialize=" + ",".join(f"{k}={v}" for k, v in sizes.items())] if sizes else []
    subprocess.run(cmd + spec, check=True, capture_output=True)
    ptx = subprocess.run(cmd[:2] + ["--emit=ptx"] + spec, check=True, capture_output=True, text=True).stdout
    lines = sum(1 for ln in ptx.splitlines()
                if ln.strip().endswith(";") and not ln.strip().startswith((".", "//")))
    with open(os.path.join(tmp, "k.log")) as f:
        regs = re.search(r"Used (\d+) registers", f.read())
    return lines, int(regs.group(1)) if regs else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", default=os.path.join(ROOT, "build", "bin"))
    args = ap.parse_args()
    with open(os.path.join(ROOT, "bench", "results", "2026-12-07-router-heldout", "rows.json")) as f:
        rows = {(r["dtype"], r["B"], r["N"], r["D"], r["K"]): r for r in json.load(f)}
    with open(os.path.join(HERE, "shapes.json")) as f:
        shapes = json.load(f)
    with open(os.path.join(ROOT, "libraries", "kmeans", "variants.json")) as f:
        variants = {v["name"]: v for v in json.load(f)["variants"]}
    plan_now = {build.variant_name(p): p for p in build.with_twins(build.plan(sorted({s["dtype"] for s in shapes}), 8))}
    print("dtype B N D K kernel | PTX lines generic / D fixed / all fixed | registers generic / D / all")
    for s in shapes:
        row = rows[(s["dtype"], s["B"], s["N"], s["D"], s["K"])]
        p, v = plan_now[row["kernel"]], variants[row["kernel"]]
        sizes = launch_sizes(v, s["B"], s["N"], s["D"], s["K"])
        every = {k: sizes[k] for k in kernel_symbols(p, args.tools) if k in sizes}
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "k.mlir")
            with open(src, "w") as f:
                f.write(build.kernel_ir(p, args.tools))
            got = [compiled(args.tools, src, fixed, tmp) for fixed in ({}, {"D": sizes["D"]}, every)]
        print(f"{s['dtype']} {s['B']} {s['N']} {s['D']} {s['K']} {row['kernel']} | "
              + " / ".join(str(g[0]) for g in got) + " | " + " / ".join(str(g[1]) for g in got), flush=True)


if __name__ == "__main__":
    main()
