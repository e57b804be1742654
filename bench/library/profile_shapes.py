#!/usr/bin/env python3
"""Runs the library's kernel and flashlib's once per listed shape, inside a CUDA profiler range,
for Nsight Compute (the device's Firecracker machines read hardware counters):

    ncu --profile-from-start off --clock-control none --section SpeedOfLight --section Occupancy \\
        --section WarpStateStats --section MemoryWorkloadAnalysis \\
        python3 bench/library/profile_shapes.py --library PKG/cake_library/library \\
            --anchors /tmp/cake-anchors --shapes shapes.json

shapes.json: [{"dtype", "B", "N", "D", "K"}, ...]. Each shape is warmed up (both calls, twice)
outside the range, so the range holds compiled kernels only: CAKE's (and its staging kernel
where the route stages) then flashlib's.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kmeans_bench import load_anchors, make_inputs  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True)
    ap.add_argument("--anchors", required=True)
    ap.add_argument("--shapes", required=True)
    args = ap.parse_args()
    try:
        with open(args.shapes) as f:
            shapes = json.load(f)
        if not isinstance(shapes, list) or not all(
                isinstance(s, dict) and {"dtype", "B", "N", "D", "K"} <= s.keys() for s in shapes):
            raise ValueError("expected a list of {dtype, B, N, D, K}")
    except (OSError, ValueError) as e:
        sys.exit(f"profile_shapes.py: {args.shapes}: {e}")
    import torch
    from cake_library import load
    lib = load(args.library)
    flashlib_assign, _ = load_anchors(args.anchors)
    gen = torch.Generator(device="cuda")
    for i, s in enumerate(shapes):
        gen.manual_seed(7000 + i)
        x, c, csq, _ = make_inputs(torch, s, False, gen)
        idx = torch.empty(s["B"], s["N"], device="cuda", dtype=torch.int32)
        ref = torch.empty(s["B"], s["N"], device="cuda", dtype=torch.int32)
        for _ in range(2):
            lib.assign(x, c, c_sq=csq, out=idx)
            flashlib_assign(x, c, ref, c_sq=csq)
        torch.cuda.synchronize()
        route = lib.route(s["B"], s["N"], s["D"], s["K"], s["dtype"])["kernel"]
        print(f"[{i}] B{s['B']} N{s['N']} D{s['D']} K{s['K']} {s['dtype']}: {route}", flush=True)
        torch.cuda.profiler.start()
        lib.assign(x, c, c_sq=csq, out=idx)
        flashlib_assign(x, c, ref, c_sq=csq)
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
        del x, c, csq, idx, ref


if __name__ == "__main__":
    main()
