#!/usr/bin/env python3
"""Paired A/B timing of two built KDA libraries (the routed variant of each), case by case.

    python3 bench/kda/ab.py --a DIR --b DIR [--cases anchors,grid] [--rounds 7] --out ab.json

Two libraries measured one after the other drift apart by 5-10% on the same H200 (clocks, the
other tenant's load), more than most changes are worth. Here the two alternate on the same
inputs: each round times A then B (CUDA events around eager calls, median of 10 after a warm-up),
and the case's figure is the median over rounds of the per-round ratio A / B (> 1: B is faster).
B's output and final state are also compared with A's (max |b - a| / max |a|): a change that is
only a schedule must leave them equal.
"""
import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "libraries", "runtime"))
from kda_bench import ANCHOR_CASES, event_time, make_inputs, rel_err, torch_and_library  # noqa: E402


def plan(cases, grid_path):
    out = []
    if "anchors" in cases:
        out += [(s, h, {}, "anchors") for s, h in ANCHOR_CASES]
    if "grid" in cases:
        with open(grid_path) as f:
            for c in json.load(f)["cases"]:
                out.append((c["seq_lens"], c["H"], {"lower_bound": c["lower_bound"], "h0": c["h0"]},
                            "heldout" if c["heldout"] else "grid"))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--cases", default="anchors,grid")
    ap.add_argument("--grid", default=os.path.join(HERE, "..", "..", "libraries", "kda", "grid.json"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds: expected at least 1")
    torch, lib_a = torch_and_library(args.a, "ab.py")
    _, lib_b = torch_and_library(args.b, "ab.py")
    gen = torch.Generator(device="cuda")
    rows, logs = [], {}
    for i, (seq_lens, H, opts, part) in enumerate(plan(args.cases.split(","), args.grid)):
        gen.manual_seed(9000 + i)
        x = make_inputs(torch, seq_lens, H, opts, gen)
        N, T = len(seq_lens), sum(seq_lens)

        def call(lib, validate=False):
            return lib.fwd(x["q"], x["k"], x["v"], x["g"], x["beta"], x["scale"], x["A_log"],
                           x["dt_bias"], x["lower_bound"], initial_state=x["h0"],
                           output_final_state=True, cu_seqlens=x["cu"], validate=validate)
        oa, sa = call(lib_a, validate=True)
        ob, sb = call(lib_b, validate=True)
        torch.cuda.synchronize()
        diff = max(rel_err(torch, ob, oa.to(torch.float64)), rel_err(torch, sb, sa.to(torch.float64)))
        ta, tb, ratios = [], [], []
        for _ in range(args.rounds):
            a = event_time(torch, lambda: call(lib_a), warm=2, iters=10)
            b = event_time(torch, lambda: call(lib_b), warm=2, iters=10)
            ta.append(a)
            tb.append(b)
            ratios.append(a / b)
        med = lambda v: sorted(v)[len(v) // 2]  # noqa: E731
        row = {"seq_lens" if N > 1 else "T": seq_lens if N > 1 else T, "H": H, "set": part,
               "kernel_a": lib_a.route(T, H, N, x["lower_bound"]),
               "kernel_b": lib_b.route(T, H, N, x["lower_bound"]),
               "a_ms": med(ta), "b_ms": med(tb), "ratio": med(ratios), "b_vs_a_err": diff}
        rows.append(row)
        logs.setdefault(part, []).append(math.log(row["ratio"]))
        print(f"[{i}] {part:8s} H{H:3d} {str(seq_lens)[:50]:50s} A {row['a_ms']:.3f} B {row['b_ms']:.3f} "
              f"A/B {row['ratio']:.3f} (B vs A {diff:.1e})", flush=True)
        with open(args.out, "w") as f:  # after every case: a cut-off call keeps what it measured
            json.dump(rows, f, indent=1)
    for part, l in logs.items():
        print(f"{part}: geomean A/B {math.exp(sum(l) / len(l)):.4f} over {len(l)} cases")


if __name__ == "__main__":
    main()
