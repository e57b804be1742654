#!/usr/bin/env python3
"""Times every variant of a cost-model sweep (bench/cost/sweep.py's folder) with cake-run on the GPU
machine: Python 3 + cake-run only. Writes one cake-run JSON record per (variant, shape), with the
variant's name, family and tunables added, to --json (and as it goes to --json + ".partial.jsonl",
so a run cut short keeps what it measured). Shapes go round-robin over the variants, so a time
budget (--budget-s) cuts every variant's shape list evenly.

  python3 bench/cost/run_sweep.py --sweep .device/cost-sweep --cake-run .device/cake-run \\
      --refs .device/ref --json $OUT/cost-sweep-h200.json --budget-s 540

The reference check (--refs: <kernel>_ref.cubin) runs on the smallest shape of each variant only
(--check all: every shape); a variant whose check fails is recorded with its status and left out of
calibration by `cake calibrate` (it keeps only status "ok").
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RTOL = {"hopper_gemm": 1e-4, "kmeans_hopper": 1e-5}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sweep", required=True, help="the folder sweep.py wrote")
    ap.add_argument("--cake-run", required=True)
    ap.add_argument("--refs", help="folder of <kernel>_ref.cubin (correctness check)")
    ap.add_argument("--check", choices=["smallest", "all", "none"], default="smallest")
    ap.add_argument("--json", required=True)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget-s", type=float, default=540, help="stop starting runs after this")
    ap.add_argument("--only", help="comma-separated families")
    args = ap.parse_args(argv)
    with open(os.path.join(args.sweep, "sweep.json")) as f:
        sweep = json.load(f)
    variants = [v for v in sweep["variants"] if "error" not in v and
                (not args.only or v["family"] in args.only.split(","))]
    start = time.time()
    records, partial = [], open(args.json + ".partial.jsonl", "w")
    n_shapes = max(len(v["shapes"]) for v in variants) if variants else 0
    stopped = False
    for si in range(n_shapes):
        for v in variants:
            if si >= len(v["shapes"]):
                continue
            if time.time() - start > args.budget_s:
                stopped = True
                break
            shape = v["shapes"][si]
            smallest = min(range(len(v["shapes"])), key=lambda i: eval_size(v["shapes"][i]))
            cmd = [args.cake_run, "--cubin", os.path.join(args.sweep, v["cubin"]),
                   "--manifest", os.path.join(args.sweep, v["manifest"]),
                   "--sizes", ",".join(f"{k}={x}" for k, x in shape.items()),
                   "--seed", str(args.seed), "--warmup", str(args.warmup), "--iters", str(args.iters),
                   "--timeout", "120"]
            if args.refs and (args.check == "all" or (args.check == "smallest" and si == smallest)):
                cmd += ["--ref", os.path.join(args.refs, v["kernel"] + "_ref.cubin"),
                        "--rtol", str(RTOL.get(v["kernel"], 1e-4))]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            try:
                rec = json.loads(proc.stdout)
            except json.JSONDecodeError:
                rec = {"status": "error", "exit_code": proc.returncode, "error": proc.stderr[-500:]}
            rec.update({"variant": v["variant"], "family": v["family"], "params": v["params"],
                        "sizes": shape, "command": " ".join(cmd)})
            rec.setdefault("kernel", v["kernel"])
            records.append(rec)
            partial.write(json.dumps(rec) + "\n")
            partial.flush()
            t = rec.get("time_ms")
            print(f"{v['variant']:48} {json.dumps(shape):44} {rec.get('status')} "
                  f"{'' if t is None else f'{t:.4f} ms'}", flush=True)
            if rec.get("error") == "no_device" or rec.get("status") == "no_device":
                print("no GPU here: stopping", file=sys.stderr)
                stopped = True
                break
        if stopped:
            break
    with open(args.json, "w") as f:
        json.dump({"schema": "cake-cost-sweep-results", "sweep": sweep.get("version"),
                   "complete": not stopped, "wall_s": round(time.time() - start, 1),
                   "records": records}, f, indent=1)
    ok = sum(r.get("status") == "ok" for r in records)
    print(f"{ok}/{len(records)} runs ok in {time.time() - start:.0f} s; wrote {args.json}")
    return 0 if records and ok == len(records) else 1


def eval_size(shape):
    n = 1
    for x in shape.values():
        n *= x
    return n


if __name__ == "__main__":
    sys.exit(main())
