#!/usr/bin/env python3
"""How often first-call autotuning (libraries/runtime/cake_library/autotune.py) picks a slower
kernel than the fastest of its candidates, and by how much: per shape, each candidate's time as
the final measures it (kmeans_bench.graph_time: CUDA-graph replay, warm clock) is the truth; the
autotuner's timer then chooses `--repeats` times under each setting, half of them right after
the GPU idled (`--idle` seconds: a new shape's first call may come after a pause, at a low
clock). Prints one JSON line per shape and a summary line; GPU machine, torch needed.

    python3 bench/library/autotune_noise.py --library PKG/cake_library/library --rows ROWS.json \
        [--max-ms 0.02] [--repeats 8] [--idle 0.1]

Shapes: the held-out rows of ROWS.json (a final's) whose CAKE time is under --max-ms.
Settings: "default" (torch_timer's defaults), "long" (5 rounds of batches of at least 0.1 ms,
up to 64 launches each) and "graph" (graph_timer: each candidate's launches replayed from a CUDA
graph, as the truth is timed: whether the eager timer's ranking differs systematically).
"""
import argparse
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from kmeans_bench import graph_time, make_inputs  # noqa: E402

SETTINGS = {"default": ("torch_timer", {}),
            "long": ("torch_timer", {"rounds": 5, "batch_ms": 0.1, "max_reps": 64}),
            "graph": ("graph_timer", {})}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True)
    ap.add_argument("--rows", required=True)
    ap.add_argument("--max-ms", type=float, default=0.02)
    ap.add_argument("--repeats", type=int, default=8)
    ap.add_argument("--idle", type=float, default=0.1)
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    import torch
    from cake_library import kmeans as km
    from cake_library import autotune
    lib = km.KMeansLibrary(args.library, autotune=1)
    with open(args.rows) as f:
        rows = [r for r in json.load(f) if not r["tuned"] and r["cake_ms"] < args.max_ms]
    if args.limit:
        rows = rows[:args.limit]
    gen = torch.Generator(device="cuda")
    gen.manual_seed(2026)
    regrets = {name: [] for name in SETTINGS}
    for s in rows:
        B, N, D, K, dtype = s["B"], s["N"], s["D"], s["K"], s["dtype"]
        x, c, csq, _ = make_inputs(torch, s, False, gen)
        out = torch.empty(B, N, device="cuda", dtype=torch.int32)
        names = [r["kernel"] for r in lib.native.candidates(B, N, D, K, dtype, 4)]
        runs = [lambda n=n: lib.assign(x, c, c_sq=csq, out=out, kernel=n) for n in names]
        truth = [graph_time(torch, run) for run in runs]
        best = min(truth)
        row = {"B": B, "N": N, "D": D, "K": K, "dtype": dtype, "candidates": names,
               "truth_us": [round(t * 1e3, 3) for t in truth]}
        for name, (timer, kw) in SETTINGS.items():
            picks = []
            for rep in range(args.repeats):
                if rep % 2:
                    torch.cuda.synchronize()
                    time.sleep(args.idle)
                times = getattr(autotune, timer)(torch, **kw)(runs)
                picks.append(min(range(len(runs)), key=lambda i: (times[i], i)))
            regret = [truth[i] / best for i in picks]
            regrets[name] += regret
            row[name] = {"picks": picks, "regret_geomean": round(math.exp(sum(map(math.log, regret)) / len(regret)), 4),
                         "regret_max": round(max(regret), 4)}
        print(json.dumps(row), flush=True)
    summary = {name: {"picks": len(r), "regret_geomean": round(math.exp(sum(map(math.log, r)) / len(r)), 4) if r else None,
                      "regret_max": round(max(r), 4) if r else None,
                      "worse_than_5pct": sum(v > 1.05 for v in r)} for name, r in regrets.items()}
    print(json.dumps({"summary": summary, "shapes": len(rows)}))


if __name__ == "__main__":
    main()
