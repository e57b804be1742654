#!/usr/bin/env python3
"""Dynamic cross-check of the static verifier on the GPU machine: run kernels under
compute-sanitizer (memcheck, racecheck, synccheck) and with a hang timeout, and report whether
the dynamic verdict agrees with the static one (cake-verify accepted the examples; the mutants
listed in a plan were rejected statically, with the rule that fired).

  python3 bench/sanitize_examples.py --cake-run DIR/cake-run --kernels DIR --plan plan.json \
      [--json OUT]

plan.json: [{"name": ..., "cubin": ..., "manifest": ..., "sizes": "M=..,N=..", "static": "accepted" |
"rule-id"}]; cubins and manifests relative to --kernels.
"""
import argparse
import json
import os
import subprocess
import sys

TOOLS = ["memcheck", "racecheck", "synccheck"]


def run(cmd, timeout, stdout_only=False):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout if stdout_only else p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        return "timeout", (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else str(e.stdout or "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cake-run", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--plan", required=True)
    ap.add_argument("--json", default="")
    ap.add_argument("--timeout", type=float, default=40)
    ap.add_argument("--no-sanitizer", action="store_true", help="plain (reference-checked) runs only")
    args = ap.parse_args()
    plan = json.load(open(args.plan))
    rows = []
    print(f"{'kernel':<44} {'static':<26} {'plain run':<14} " + " ".join(f"{t:<10}" for t in TOOLS))
    for item in plan:
        base = [args.cake_run, "--cubin", os.path.join(args.kernels, item["cubin"]),
                "--manifest", os.path.join(args.kernels, item["manifest"]),
                "--sizes", item["sizes"], "--no-time", "--timeout", "10"]
        if item.get("ref"):
            base += ["--ref", os.path.join(args.kernels, item["ref"]), "--rtol", str(item.get("rtol", 1e-4))]
        if item.get("ref_entry"):
            base += ["--ref-entry", item["ref_entry"]]
        # The record is cake-run's last stdout line (stderr may carry a hang report's text).
        rc, out = run(base, args.timeout, stdout_only=True)
        record = {}
        try:
            record = json.loads(out.strip().splitlines()[-1]) if rc != "timeout" else {}
            status = record["status"] if rc != "timeout" else "timeout"
        except (json.JSONDecodeError, IndexError, KeyError):
            status = f"rc {rc}"
        verdicts = {}
        # A hang needs no sanitizer to be seen; mutants get racecheck only (time budget).
        # memcheck for address rules (cp.async alignment), racecheck for the rest.
        tools = [] if status == "timeout" or args.no_sanitizer else \
            TOOLS if item["static"] == "accepted" else \
            ["memcheck"] if item["static"].startswith("async.cp-async") else ["racecheck"]
        for tool in tools:
            # The worker process is where the kernel runs: sanitize child processes too.
            rc, out = run(["compute-sanitizer", "--tool", tool, "--target-processes", "all",
                           "--error-exitcode", "99"] + base, args.timeout)
            if rc == "timeout":
                verdicts[tool] = "timeout"
            elif "ERROR SUMMARY: 0 errors" in out or ("RACECHECK SUMMARY: 0 hazards" in out):
                verdicts[tool] = "clean"
            elif "ERROR SUMMARY" in out or "hazard" in out.lower():
                verdicts[tool] = "errors"
            else:
                verdicts[tool] = f"rc {rc}"
        rows.append({"name": item["name"], "static": item["static"], "run": status,
                     "error": (record.get("error") or "")[:300], "hang": record.get("hang"),
                     "sanitizer": verdicts})
        print(f"{item['name']:<44} {item['static']:<26} {status:<14} " +
              " ".join(f"{verdicts.get(t, '-'):<10}" for t in TOOLS), flush=True)
        if record.get("error"):
            print(f"    {record['error'][:200]}", flush=True)
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    sys.exit(main())
