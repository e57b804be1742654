#!/usr/bin/env python3
"""kmeans_assign's bad-input contract on real torch tensors (GPU machine): each bad call raises
an error naming the argument, and `out` is left as it was (nothing launched, nothing written).
agent/tests/test_kmeans_args.py checks the same logic on the CPU with a fake torch; this checks
that real tensors answer the attributes as the fake does.

    python3 bench/library/bad_input_check.py --library PKG/cake_library/library

The good call at the end is B2 N100 D64 K16 float16: a package pruned for a GPU call must keep
that shape's kernels (add it to prune_package.py's --grid; kmeans-22's call 1 missed it).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "libraries", "runtime"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True)
    args = ap.parse_args()
    import torch
    from cake_library.kmeans import KMeansLibrary
    lib = KMeansLibrary(args.library)
    B, N, D, K = 2, 100, 64, 16
    x = torch.randn(B, N, D, device="cuda", dtype=torch.float16)
    c = torch.randn(B, K, D, device="cuda", dtype=torch.float16)
    csq = (c.float() ** 2).sum(-1)
    out = torch.full((B, N), -7, device="cuda", dtype=torch.int32)
    cases = [
        ("x", dict(x=x.cpu())), ("c", dict(c=c.float())), ("x", dict(x=x.transpose(1, 2))),
        ("c", dict(c=c[:, :, :32])), ("x: N", dict(x=x[:, :0], out=None)), ("x: D", dict(x=x[:, :, :0], c=c[:, :, :0])),
        ("c: K", dict(c=c[:, :0], c_sq=None)), ("c_sq", dict(c_sq=csq[0])), ("c_sq", dict(c_sq=csq.double())),
        ("out", dict(out=out[0])), ("out", dict(out=out.long())), ("out", dict(out=out.t())),
        ("x", dict(x=x.double(), c=c.double())), ("c", dict(c=c[0])),
    ]
    failures = 0
    for name, change in cases:
        call = dict(x=x, c=c, c_sq=csq, out=out)
        call.update(change)
        try:
            lib.assign(**call)
            ok, why = False, "no error"
        except (TypeError, ValueError) as e:
            ok, why = str(e).startswith(name), str(e)
        torch.cuda.synchronize()
        untouched = bool((out == -7).all())
        failures += not (ok and untouched)
        print(f"{'ok ' if ok and untouched else 'BAD'} {name:6s} {why}{'' if untouched else ' (out written)'}")
    idx = lib.assign(x, c, c_sq=csq, out=out)
    ref = torch.cdist(x.float(), c.float()).argmin(-1).int()
    agree = float((idx == ref).float().mean())
    print(f"good call after the bad ones: agreement with cdist {agree:.4f}")
    sys.exit(1 if failures or agree < 0.99 else 0)


if __name__ == "__main__":
    main()
