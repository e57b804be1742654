#!/usr/bin/env python3
"""Run every compiled example through cake-run: each shape x each seed, against its reference.

Needs only Python 3 and the cake-run binary (no LLVM/MLIR), so it runs as is on the GPU machine:

  bench/run_examples.py --cake-run build/bin/cake-run --kernels build/examples/out \
      --refs build/examples/ref [--seeds 1,2,3] [--json results.json]

--kernels holds <name>.cubin and <name>.json (cake-translate --emit=cubin --manifest) per example.
Prints a table and writes every cake-run record to --json. Exit status: 0 if every run passed,
1 if any failed, 5 if there is no GPU (every run said no_device; nothing was checked).
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def evaluate(expr, sizes):
    """Evaluates a floor formula (integers, symbols, + - * and parentheses) for the table."""
    if not re.fullmatch(r"[A-Za-z0-9_+\-* ()]+", expr):
        raise ValueError("unsupported floor formula: " + expr)
    return eval(expr, {"__builtins__": {}}, dict(sizes))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cake-run", required=True)
    parser.add_argument("--kernels", required=True, help="folder of <name>.cubin + <name>.json")
    parser.add_argument("--refs", required=True, help="folder of <name>_ref.cubin")
    parser.add_argument("--config", default=os.path.join(HERE, "examples.json"))
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--only", default="", help="comma list of examples to run")
    parser.add_argument("--iters", type=int, default=50)
    parser.add_argument("--json", default="", help="write all records here")
    parser.add_argument("--bandwidth", type=float, default=4.24e12,
                        help="measured bytes/s for the floor (ANCHORS.md: 4.24 TB/s)")
    parser.add_argument("--flops", type=float, default=51e12,
                        help="measured fp32 FLOP/s for the floor (ANCHORS.md: cuBLAS fp32 51 TF)")
    args = parser.parse_args()

    with open(args.config) as f:
        config = json.load(f)["examples"]
    seeds = [int(s) for s in args.seeds.split(",")]
    only = set(filter(None, args.only.split(",")))
    records, failures, no_device = [], 0, 0

    print(f"{'example':<14} {'shape':<28} {'seed':>4} {'status':<13} {'rel_err':>9} "
          f"{'time_ms':>9} {'floor_ms':>9} {'of floor':>8}")
    for name, spec in config.items():
        if only and name not in only:
            continue
        cubin = os.path.join(args.kernels, name + ".cubin")
        manifest = os.path.join(args.kernels, name + ".json")
        if not os.path.exists(cubin):
            print(f"{name:<14} (not compiled for this GPU: skipped)")
            continue
        # A reference cubin may hold several examples' references ("ref" names it).
        ref = os.path.join(args.refs, spec.get("ref", name) + "_ref.cubin")
        for shape in spec["shapes"]:
            sizes = ",".join(f"{k}={v}" for k, v in shape.items())
            floor_s = max(evaluate(spec["floor_bytes"], shape) / args.bandwidth,
                          evaluate(spec["floor_flops"], shape) / spec.get("peak_flops", args.flops))
            for seed in seeds:
                cmd = [args.cake_run, "--cubin", cubin, "--manifest", manifest, "--sizes", sizes,
                       "--seed", str(seed), "--ref", ref, "--rtol", str(spec["rtol"]),
                       "--iters", str(args.iters), "--timeout", "60"]
                if spec.get("ref_entry"):  # a kernel checked by another example's reference
                    cmd += ["--ref-entry", spec["ref_entry"]]
                proc = subprocess.run(cmd, capture_output=True, text=True)
                try:
                    record = json.loads(proc.stdout.strip().splitlines()[-1])
                except (json.JSONDecodeError, IndexError):
                    record = {"status": "runner_crash", "error": proc.stderr.strip()[-500:]}
                record["example"], record["command"] = name, " ".join(cmd)
                record["floor_ms"] = floor_s * 1e3
                records.append(record)
                status = record.get("status")
                if status == "no_device" and not records[:-1]:
                    print("no GPU here (cake-run: %s): nothing was run" % record.get("error"))
                    return 5
                no_device += status == "no_device"
                failures += status != "ok"
                # Integer outputs judged by the reference's checker (argmin near-ties) have no
                # meaningful rel_err; the float outputs' worst error is what the table shows.
                errs = [o.get("rel_err") for o in record.get("outputs", [])
                        if o.get("rel_err") is not None and o.get("checked_by") != "ref_check"]
                err = max(errs) if errs else float("nan")
                t = record.get("time_ms")
                ratio = f"{t / (floor_s * 1e3):.2f}x" if t else "-"
                print(f"{name:<14} {sizes:<28} {seed:>4} {status:<13} {err:>9.2e} "
                      f"{(t or float('nan')):>9.4f} {floor_s * 1e3:>9.4f} {ratio:>8}", flush=True)
                if status not in ("ok", "no_device"):
                    print("   ", record.get("error"), flush=True)

    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)
    if records and no_device == len(records):
        print("no GPU here: the examples were compiled but not run (cake-run: no_device)")
        return 5
    print(f"{len(records) - failures} of {len(records)} runs passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
