#!/usr/bin/env python3
"""The Python API's host time per kmeans_assign under two runtimes in one process (GPU machine):
A and B are cake_library folders imported side by side under different names, called with the
same tensors on the same library, in alternating rounds (median host microseconds of 400 calls
per round, no synchronization inside), with c_sq and out given and without c_sq. Separate
processes differ by more than the effect (kmeans-22 call 1: 16-23 us for the same runtime).

    python3 bench/library/host_ab.py --library PKG/cake_library/library --a OLD/runtime --b NEW/runtime
"""
import argparse
import importlib
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from host_breakdown import SHAPES, inputs  # noqa: E402
from kmeans_bench import host_time  # noqa: E402


def load_runtime(folder, alias):
    """The package folder/cake_library imported as `alias` (its relative imports follow)."""
    pkg = os.path.join(os.path.abspath(folder), "cake_library")
    spec = importlib.util.spec_from_file_location(alias, os.path.join(pkg, "__init__.py"),
                                                  submodule_search_locations=[pkg])
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    spec.loader.exec_module(module)
    return importlib.import_module(alias + ".kmeans")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True)
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    import torch
    libs = {arm: load_runtime(path, "cake_library_" + arm).KMeansLibrary(args.library)
            for arm, path in (("a", args.a), ("b", args.b))}
    for s in SHAPES:
        B, N, D, K, x, c, csq = inputs(torch, s)
        outs = {arm: torch.empty(B, N, device="cuda", dtype=torch.int32) for arm in libs}
        for arm, lib in libs.items():
            lib.assign(x, c, c_sq=csq, out=outs[arm])
        torch.cuda.synchronize()
        same = bool((outs["a"] == outs["b"]).all())
        for form, with_csq in (("assign(x, c, c_sq, out)", True), ("assign(x, c, out=out)", False)):
            times = {arm: [] for arm in libs}
            for r in range(args.rounds):
                for arm in (("a", "b") if r % 2 == 0 else ("b", "a")):
                    lib, out = libs[arm], outs[arm]
                    call = (lambda: lib.assign(x, c, c_sq=csq, out=out)) if with_csq else \
                        (lambda: lib.assign(x, c, out=out))
                    times[arm].append(host_time(torch, call, calls=400))
            med = {arm: sorted(t)[len(t) // 2] for arm, t in times.items()}
            print(json.dumps(dict(s, form=form, a_us=round(med["a"], 2), b_us=round(med["b"], 2),
                                  a_over_b=round(med["a"] / med["b"], 3), same_output=same,
                                  rounds={arm: [round(v, 2) for v in t] for arm, t in times.items()})),
                  flush=True)


if __name__ == "__main__":
    main()
