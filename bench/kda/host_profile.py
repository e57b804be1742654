#!/usr/bin/env python3
"""Where a small KDA call's time goes: host (Python) against GPU, per case.

    python3 bench/kda/host_profile.py --library DIR [--calls 300] [--out host.json]

For each case: the bench's figure (CUDA events around one eager call, median), the host time per
call (wall clock over back-to-back calls, no synchronization in between), the kernels' own GPU time
(torch.profiler), and cProfile's most expensive functions. When the first is close to the host
time and far above the GPU time, the case is bound by the launcher, not by its kernels.
"""
import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "libraries", "runtime"))
from kda_bench import event_time, make_inputs, torch_and_library  # noqa: E402

if os.environ.get("CAKE_RUNTIME"):   # another copy of libraries/runtime (an A/B of the launcher)
    sys.path.insert(0, os.environ["CAKE_RUNTIME"])

# Small cases where the anchors' rows show CAKE behind FlashKDA (bench/results/2026-12-03-kda-prep).
CASES = [([2], 24), ([48], 2), ([43] * 9, 24), ([147, 147], 4), ([1, 15, 26], 20)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", required=True)
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--no-cprofile", action="store_true", help="timings only")
    ap.add_argument("--out")
    args = ap.parse_args()
    torch, lib = torch_and_library(args.library, "host_profile.py")
    import cake_library
    runtime = os.path.dirname(os.path.abspath(cake_library.__file__))
    gen = torch.Generator(device="cuda")
    rows = []
    for i, (seq_lens, H) in enumerate(CASES):
        gen.manual_seed(100 + i)
        x = make_inputs(torch, seq_lens, H, {}, gen)

        def call():
            return lib.fwd(x["q"], x["k"], x["v"], x["g"], x["beta"], x["scale"], x["A_log"],
                           x["dt_bias"], x["lower_bound"], initial_state=x["h0"],
                           output_final_state=True, cu_seqlens=x["cu"], validate=False)
        event_ms = event_time(torch, call, warm=5, iters=31)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(args.calls):
            call()
        host_us = (time.perf_counter() - t0) / args.calls * 1e6
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            for _ in range(20):
                call()
            torch.cuda.synchronize()
        kernels = {}
        for e in prof.key_averages():
            if e.device_time_total > 0:
                kernels[e.key] = round(e.device_time_total / 20, 2)       # us per call
        text = io.StringIO()
        if not args.no_cprofile:
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(args.calls):
                call()
            profiler.disable()
            torch.cuda.synchronize()
            pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(14)
        row = {"seq_lens": seq_lens, "H": H, "kernel": lib.route(sum(seq_lens), H, len(seq_lens), -5.0),
               "runtime": runtime, "event_ms": event_ms, "host_us_per_call": round(host_us, 1),
               "gpu_us_per_call": round(sum(kernels.values()), 1), "gpu_kernels_us": kernels}
        rows.append(row)
        print(json.dumps(row), flush=True)
        if not args.no_cprofile:
            print(text.getvalue().split("\n", 6)[-1][:3000], flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
