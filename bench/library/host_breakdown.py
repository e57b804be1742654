#!/usr/bin/env python3
"""Where the Python API's host time per kmeans_assign goes (the issue's target: <= 10 us per
call): each step of KMeansLibrary.assign timed alone, median microseconds over many calls, no
synchronization inside the loops (GPU machine; torch needed).

    python3 bench/library/host_breakdown.py --library PKG/cake_library/library [--out FILE]
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "libraries", "runtime"))
sys.path.insert(0, HERE)
from kmeans_bench import host_time  # noqa: E402   (median host us of one call, no sync inside)

SHAPES = [dict(B=1, N=4096, D=64, K=256, dtype="float16"), dict(B=4, N=997, D=7, K=67, dtype="bfloat16")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True)
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    import torch
    from cake_library import kmeans as km
    lib = km.KMeansLibrary(args.library)
    rows = []
    for s in SHAPES:
        dt = getattr(torch, s["dtype"])
        x = torch.randn(s["B"], s["N"], s["D"], device="cuda").to(dt)
        c = torch.randn(s["B"], s["K"], s["D"], device="cuda").to(dt)
        csq = (c.float() ** 2).sum(-1).contiguous()
        out = torch.empty(s["B"], s["N"], device="cuda", dtype=torch.int32)
        lib.assign(x, c, c_sq=csq, out=out)
        torch.cuda.synchronize()
        B, N, D, K = s["B"], s["N"], s["D"], s["K"]
        dev = x.get_device()
        stream = km._raw_stream(torch, dev)
        native_args = (x.data_ptr(), c.data_ptr(), csq.data_ptr(), out.data_ptr(), B, N, D, K, s["dtype"], stream)
        steps = {
            "assign (whole call)": lambda: lib.assign(x, c, c_sq=csq, out=out),
            "_check(x, c)": lambda: km._check(torch, x, c),
            "_need(c_sq) + _need(out)": lambda: (km._need(torch, csq, "c_sq", (B, K), torch.float32, x.device),
                                                 km._need(torch, out, "out", (B, N), torch.int32, x.device)),
            "str(dtype)": lambda: str(x.dtype).replace("torch.", ""),
            "out.view": lambda: out.view(B, N),
            "autotuner lookup": lambda: lib.autotuner.chosen.get((B, N, D, K, s["dtype"], x.device)),
            "get_device + 4 data_ptr": lambda: (x.get_device(), x.data_ptr(), c.data_ptr(), csq.data_ptr(),
                                               out.data_ptr()),
            "_raw_stream": lambda: km._raw_stream(torch, dev),
            "current_device": lambda: torch.cuda.current_device(),
            "native.assign (ctypes + C++)": lambda: lib.native.assign(*native_args),
        }
        row = dict(s, **{k: round(host_time(torch, f, calls=400), 2) for k, f in steps.items()})
        torch.cuda.synchronize()
        rows.append(row)
        print(json.dumps(row))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
