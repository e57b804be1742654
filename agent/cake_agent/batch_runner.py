#!/usr/bin/env python3
"""Runs an exported CAKE batch on a GPU machine: needs only python3 and the cake-run binary.

    python3 run_batch.py [--cake-run ./cake-run] [--out results.json]

Reads plan.json beside this script, runs every job (a cake-run command line) from this folder,
and writes every record to results.json. Exit status: 0 when every job produced a record,
5 when there is no GPU (cake-run said no_device), 1 otherwise. Then, on the compile machine:
``cake batch-ingest <this folder>/results.json``.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cake-run", default=os.path.join(HERE, "cake-run"))
    ap.add_argument("--out", default=os.path.join(HERE, "results.json"))
    args = ap.parse_args()
    with open(os.path.join(HERE, "plan.json")) as f:
        plan = json.load(f)
    results, no_device, missing = [], 0, 0
    for i, job in enumerate(plan["jobs"]):
        argv = [args.cake_run] + job["args"]
        try:
            proc = subprocess.run(argv, cwd=HERE, capture_output=True, text=True, timeout=job["timeout"])
            out, err, rc = proc.stdout, proc.stderr, proc.returncode
        except subprocess.TimeoutExpired as e:
            out, err, rc = e.stdout or "", "batch runner: killed after %s s" % job["timeout"], None
        record = None
        for line in reversed((out if isinstance(out, str) else out.decode()).strip().splitlines()):
            try:
                record = json.loads(line)
                break
            except ValueError:
                continue
        missing += record is None
        no_device += bool(record) and record.get("status") == "no_device"
        results.append({"job": job["job"], "returncode": rc, "record": record,
                        "stderr_tail": (err if isinstance(err, str) else err.decode())[-500:]})
        status = record.get("status") if record else "no record"
        print(f"[{i + 1}/{len(plan['jobs'])}] candidate {job['candidate']} {job['sizes']}: {status}", flush=True)
    with open(args.out, "w") as f:
        json.dump({"run": plan["run"], "generation": plan["generation"], "batch": plan["batch"],
                   "results": results}, f, indent=1)
    print("wrote", args.out)
    if results and no_device == len(results):
        print("no GPU here: nothing was measured")
        return 5
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
