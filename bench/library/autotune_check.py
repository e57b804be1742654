#!/usr/bin/env python3
"""What first-call autotuning (cake_library/autotune.py) costs and chooses, on the GPU: for each
shape, the wall time of the first call (candidates timed), of the second call, the candidates'
times and the kept kernel, and whether the first call's output equals the fp64 reference up to
exact ties (kmeans_bench.judge).

    python3 bench/library/autotune_check.py --library PKG/cake_library/library --grid G.json \
        [--limit 20] --out autotune.json
"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "libraries", "runtime"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True)
    ap.add_argument("--grid", required=True)
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    import torch
    from cake_library.kmeans import KMeansLibrary
    from kmeans_bench import judge, make_inputs
    lib = KMeansLibrary(args.library)
    with open(args.grid) as f:
        shapes = [s for s in json.load(f)["shapes"]][:args.limit]
    gen, rows = torch.Generator(device="cuda"), []
    for i, s in enumerate(shapes):
        gen.manual_seed(7000 + i)
        x, c, csq, _ = make_inputs(torch, s, False, gen)
        out = torch.full((s["B"], s["N"]), -1, device="cuda", dtype=torch.int32)
        walls = []
        for _ in range(2):
            torch.cuda.synchronize()
            t = time.perf_counter()
            lib.assign(x, c, c_sq=csq, out=out)
            torch.cuda.synchronize()
            walls.append((time.perf_counter() - t) * 1e3)
        key = lib.tune_key(s["B"], s["N"], s["D"], s["K"], s["dtype"], x.device)
        row = {k: s[k] for k in ("B", "N", "D", "K", "dtype")}
        row.update(first_call_ms=walls[0], second_call_ms=walls[1],
                   routed=lib.route(*key[:5])["kernel"], kept=lib.launched_kernel(*key),
                   candidates_ms=lib.autotuner.records.get(key), correct=judge(torch, s, x, c, out)[1])
        rows.append(row)
        print(json.dumps(row), flush=True)
    with open(args.out, "w") as f:
        json.dump(rows, f, indent=0)


if __name__ == "__main__":
    main()
