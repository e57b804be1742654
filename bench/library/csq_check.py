#!/usr/bin/env python3
"""A call without c_sq (the dispatcher's |c|^2 kernel, families/csq.py) against the same call with
torch's |c|^2 (GPU machine): assignments judged against fp64 (kmeans_bench.judge) on random and
clustered data, the share of points where the two calls agree, the host time of both forms
(median us per call, no synchronization inside) and their GPU time with the old default's
(torch's |c|^2 then the assignment) beside them. One JSON line per shape; exit 1 when a call
without c_sq is wrong or fails.

    python3 bench/library/csq_check.py --library PKG/cake_library/library --grid G.json [--count 40]
"""
import argparse
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "libraries", "runtime"))
from kmeans_bench import LLOYD_TOL, graph_time, host_time, judge, make_inputs  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True)
    ap.add_argument("--grid", required=True, help="shapes: {\"shapes\": [...]} (grid.json) or a list of "
                    "{B, N, D, K, dtype}")
    ap.add_argument("--count", type=int, default=40, help="shapes drawn from the grid (seed 11)")
    args = ap.parse_args()
    import torch
    from cake_library.kmeans import KMeansLibrary
    lib = KMeansLibrary(args.library)
    with open(args.grid) as f:
        grid = json.load(f)
    grid = grid["shapes"] if isinstance(grid, dict) else grid       # grid.json's form or a list
    shapes = random.Random(11).sample(grid, min(args.count, len(grid)))
    print(json.dumps({"computes_csq": sorted(lib._native_csq), "entry_points": bool(
        lib.native and lib.native.entry)}), flush=True)
    gen = torch.Generator(device="cuda")
    bad = 0
    for i, s in enumerate(shapes):
        B, N, D, K = s["B"], s["N"], s["D"], s["K"]
        row = {k: s[k] for k in ("B", "N", "D", "K", "dtype")}
        gen.manual_seed(7000 + i)
        try:
            for clustered in (False, True):
                x, c, csq, _ = make_inputs(torch, s, clustered, gen)
                mine = lib.assign(x, c)
                given = lib.assign(x, c, c_sq=csq)
                torch.cuda.synchronize()
                tag = "clustered" if clustered else "random"
                row[tag + "_exact"], row[tag + "_correct"] = judge(torch, s, x, c, mine)
                row[tag + "_agree"] = float((mine == given).float().mean())
                bad += not row[tag + "_correct"]
            out = torch.empty(B, N, device="cuda", dtype=torch.int32)
            row["host_us_no_csq"] = round(host_time(torch, lambda: lib.assign(x, c, out=out), calls=200), 2)
            row["host_us_csq"] = round(host_time(torch, lambda: lib.assign(x, c, c_sq=csq, out=out), calls=200), 2)
            # GPU time (CUDA graph replays): without c_sq (|c|^2 kernel + assignment), with it
            # given, and the old default (torch's |c|^2, three kernels, then the assignment).
            ws = torch.empty(B, K, device="cuda", dtype=torch.float32)
            for name, fn in (("no_csq", lambda: lib.assign(x, c, out=out)),
                             ("csq_given", lambda: lib.assign(x, c, c_sq=csq, out=out)),
                             ("torch_csq", lambda: (torch.sum(c.view(B, K, D).float() ** 2, -1, out=ws),
                                                    lib.assign(x, c, c_sq=ws, out=out)))):
                row["gpu_ms_" + name] = round(graph_time(torch, fn), 5)
        except Exception as e:          # noqa: BLE001  (reported per shape; the exit code counts it)
            row["error"] = f"{type(e).__name__}: {e}"[:300]
            bad += 1
        print(json.dumps(row), flush=True)
        if i == 0 and "error" not in row:
            # lloyd_step on [N, D] / [K, D] (the first batch) gives what it gives on [1, N, D]:
            # the same assignments, centroids within the Lloyd check's tolerance (the sums are
            # atomic adds, in no fixed order).
            new2, idx2 = lib.lloyd_step(x[0], c[0])
            new3, idx3 = lib.lloyd_step(x[:1], c[:1])
            diff = ((new2.double() - new3[0].double()).norm() / new3.double().norm().clamp(min=1e-30)).item()
            same = bool(torch.equal(idx2, idx3[0])) and diff <= LLOYD_TOL[s["dtype"]]
            print(json.dumps({"lloyd_2d_matches_3d": same, "centroid_rel_diff": diff,
                              "shapes": [list(new2.shape), list(idx2.shape)]}), flush=True)
            bad += not same
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
