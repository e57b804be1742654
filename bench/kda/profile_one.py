#!/usr/bin/env python3
"""One KDA call of one variant on one case (for ncu / nsys): random inputs as kda_bench.py's.

    python3 bench/kda/profile_one.py --library DIR --kernel NAME --seq-lens 32768 --heads 16
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "libraries", "runtime"))
from kda_bench import make_inputs, seq_lens_arg, torch_and_library  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--seq-lens", type=seq_lens_arg, default="32768")
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--calls", type=int, default=2)
    args = ap.parse_args()
    torch, lib = torch_and_library(args.library, "profile_one.py")
    gen = torch.Generator(device="cuda")
    gen.manual_seed(1)
    x = make_inputs(torch, args.seq_lens, args.heads, {}, gen)
    for _ in range(args.calls):
        lib.fwd(x["q"], x["k"], x["v"], x["g"], x["beta"], x["scale"], x["A_log"], x["dt_bias"],
                x["lower_bound"], initial_state=x["h0"], output_final_state=True, cu_seqlens=x["cu"],
                kernel=args.kernel)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
