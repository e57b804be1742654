#!/usr/bin/env python3
"""Regenerates bench/verify-corpus/{buggy,correct}/ from the kernel families in this folder.

    python3 bench/verify-corpus/gen/make.py          # rewrites every .mlir of the corpus
"""
import importlib
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

MODULES = ["arrivals", "parity", "pipeline", "control_flow", "async_proxy", "tma_store", "cp_async",
           "cluster", "named_barrier", "smem_bounds", "shape", "race"]


def main():
    import common
    common.load_observed(os.path.join(ROOT, "gpu", "results-h200.json"))
    for m in MODULES:
        if os.path.exists(os.path.join(HERE, m + ".py")):
            importlib.import_module(m)
    for verdict in ("buggy", "correct"):
        shutil.rmtree(os.path.join(ROOT, verdict), ignore_errors=True)
    paths = common.write_all(ROOT)
    counts = {}
    for k in common.KERNELS:
        counts.setdefault(k["cls"], [0, 0])[0 if k["verdict"] == "buggy" else 1] += 1
    for cls, (b, c) in sorted(counts.items()):
        print(f"{cls:16s} buggy {b:3d} correct {c:3d}")
    print(f"total: {len(paths)} files")


if __name__ == "__main__":
    main()
