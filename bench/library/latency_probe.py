"""Diagnostic: where the time of a tiny KMeans call goes (CAKE simt/wgmma vs flashlib).

    python3 bench/library/latency_probe.py --library DIR --anchors SITE
"""
import argparse
import sys
import os

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "libraries", "runtime"))
sys.path.insert(0, HERE)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", required=True)
    ap.add_argument("--anchors", required=True)
    args = ap.parse_args()
    import torch
    from cake_library import load
    from kmeans_bench import graph_time, load_anchors
    lib = load(args.library)
    fl, _ = load_anchors(args.anchors)
    for B, N, D, K in ((1, 1, 3, 43), (3, 47, 8, 28), (1, 4096, 64, 256)):
        x = torch.randn(B, N, D, device="cuda", dtype=torch.float16)
        c = torch.randn(B, K, D, device="cuda", dtype=torch.float16)
        csq = (c.float() ** 2).sum(-1)
        o = torch.empty(B, N, device="cuda", dtype=torch.int32)
        legal = lib.router.legal(B, N, D, K, "float16")
        res = {}
        for v in legal[:3] + [v for v in legal if v["family"] == "simt"][:1]:
            f = lambda: lib.assign(x, c, c_sq=csq, out=o, kernel=v["name"])  # noqa: E731
            res[v["config"]] = graph_time(torch, f)
            # plain stream timing: 200 launches, events around the whole loop
            f(); torch.cuda.synchronize()
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            for _ in range(200):
                f()
            b.record(); torch.cuda.synchronize()
            res[v["config"] + "_stream"] = a.elapsed_time(b) / 200
        g = lambda: fl(x, c, o, c_sq=csq)  # noqa: E731
        res["flashlib"] = graph_time(torch, g)
        g(); torch.cuda.synchronize()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(200):
            g()
        b.record(); torch.cuda.synchronize()
        res["flashlib_stream"] = a.elapsed_time(b) / 200
        e = lambda: torch.empty(1, device="cuda").fill_(1.0)  # noqa: E731
        res["torch_fill"] = graph_time(torch, e)
        print(B, N, D, K, {k: round(v * 1000, 2) for k, v in res.items()}, flush=True)


if __name__ == "__main__":
    main()
