#!/usr/bin/env python3
"""Where the Python API's host time per kmeans_assign goes (the issue's target: <= 10 us per
call): the whole call in three forms, and with --steps each step of KMeansLibrary.assign timed
alone; median microseconds over many calls, no synchronization inside the loops (GPU machine;
torch needed).

    python3 bench/library/host_breakdown.py --library PKG/cake_library/library [--steps] [--out FILE]
        [--runtime DIR]    # the folder holding the cake_library to time (default: the repo's);
                           # an older runtime there gives the A arm of a paired comparison
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from kmeans_bench import host_time  # noqa: E402   (median host us of one call, no sync inside)

SHAPES = [dict(B=1, N=4096, D=64, K=256, dtype="float16"), dict(B=4, N=997, D=7, K=67, dtype="bfloat16")]


def inputs(torch, s):
    """(B, N, D, K, x, c, |c|^2) of a shape: random CUDA tensors of its dtype."""
    B, N, D, K = s["B"], s["N"], s["D"], s["K"]
    dt = getattr(torch, s["dtype"])
    x = torch.randn(B, N, D, device="cuda").to(dt)
    c = torch.randn(B, K, D, device="cuda").to(dt)
    return B, N, D, K, x, c, (c.float() ** 2).sum(-1).contiguous()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True)
    ap.add_argument("--runtime", default=os.path.join(HERE, "..", "..", "libraries", "runtime"))
    ap.add_argument("--steps", action="store_true", help="time each step of assign alone as well")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(args.runtime))
    import torch
    from cake_library import kmeans as km
    lib = km.KMeansLibrary(args.library)
    rows = []
    for s in SHAPES:
        B, N, D, K, x, c, csq = inputs(torch, s)
        out = torch.empty(B, N, device="cuda", dtype=torch.int32)
        calls = {
            "assign(x, c, c_sq, out)": lambda: lib.assign(x, c, c_sq=csq, out=out),
            "assign(x, c)": lambda: lib.assign(x, c),
        }
        if B == 1:
            x2, c2, csq2, out2 = x[0], c[0], csq[0], out[0]
            calls["assign 2-D (x, c, c_sq, out)"] = lambda: lib.assign(x2, c2, c_sq=csq2, out=out2)
        for f in calls.values():
            f()
        torch.cuda.synchronize()
        row = dict(s, runtime=os.path.abspath(args.runtime))
        row.update({k: round(host_time(torch, f, calls=400), 2) for k, f in calls.items()})
        if args.steps:
            dev = x.get_device()
            stream = km._raw_stream(dev)
            native_args = (x.data_ptr(), c.data_ptr(), csq.data_ptr(), out.data_ptr(), B, N, D, K,
                           s["dtype"], stream)
            steps = {
                "_check(x, c)": lambda: km._check(torch, x, c),
                "_need(c_sq) + _need(out)": lambda: (km._need(torch, csq, "c_sq", (B, K), torch.float32, dev),
                                                     km._need(torch, out, "out", (B, N), torch.int32, dev)),
                "autotuner lookup": lambda: lib.autotuner.chosen.get(lib.tune_key(B, N, D, K, s["dtype"], dev)),
                "4 data_ptr": lambda: (x.data_ptr(), c.data_ptr(), csq.data_ptr(), out.data_ptr()),
                "_raw_stream": lambda: km._raw_stream(dev),
                "current_device": lambda: torch.cuda.current_device(),
                "_CURRENT_DEVICE (what assign calls)":
                    getattr(km, "_CURRENT_DEVICE", None) or torch.cuda.current_device,
                # Through _cake_native where it loaded (row's "entry_points"), else ctypes.
                "native.assign (foreign call + C++ + driver)": lambda: lib.native.assign(*native_args),
            }
            row["entry_points"] = getattr(lib.native, "entry", None) is not None   # older runtimes: none
            row.update({k: round(host_time(torch, f, calls=400), 2) for k, f in steps.items()})
        torch.cuda.synchronize()
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
