#!/usr/bin/env python3
"""Predicted vs measured for every GPU-measured candidate of evolution databases, predicted again
with the cake-opt of this build (so a cost-model change is judged on all recorded evolutions, not
on the run it was tuned for). One row per task: calibrate.metrics (Spearman, share within 1.25x
and 2x, MAPE) over (candidate, shape) pairs, and Spearman on the task's first shape alone.

  python3 bench/cost/recost_db.py --db .device/evo5.db --db .device/evo6.db [--bin build/bin] [--json out.json]
"""
import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "agent"))
from cake_agent import calibrate as cal  # noqa: E402


def predict(cake_opt, ir, shape, scratch):
    path = os.path.join(scratch, "candidate.mlir")
    with open(path, "w") as f:
        f.write(ir)
    sizes = ",".join(f"{k}={v}" for k, v in shape.items())
    out = subprocess.run([cake_opt, path, f"--cake-print-cost=sizes={sizes} json=-", "-o", os.devnull],
                         capture_output=True, text=True, timeout=60)
    if out.returncode or not out.stdout.strip():
        return None
    kernels = json.loads(out.stdout).get("kernels") or [{}]
    return kernels[0].get("predicted_time_ms")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", action="append", required=True)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    cake_opt = os.path.join(args.bin, "cake-opt")
    by_task = {}
    with tempfile.TemporaryDirectory() as scratch:
        for path in args.db:
            db = sqlite3.connect(path)
            rows = db.execute(
                "SELECT r.task, c.id, c.ir, m.shape, MIN(m.time_ms) FROM measurements m "
                "JOIN candidates c ON c.id = m.candidate_id JOIN runs r ON r.id = c.run_id "
                "WHERE m.status = 'ok' GROUP BY c.id, m.shape ORDER BY c.id").fetchall()
            for task, cid, ir, shape, ms in rows:
                pred = predict(cake_opt, ir, json.loads(shape), scratch)
                if pred:
                    by_task.setdefault(task, []).append(
                        {"db": path, "candidate": cid, "shape": shape, "pred": pred, "ms": ms})
    report = {}
    print("| task | pairs | Spearman | Spearman, first shape | within 1.25x | within 2x | MAPE % |")
    print("|---|---|---|---|---|---|---|")
    for task, recs in sorted(by_task.items()):
        m = cal.metrics([r["pred"] for r in recs], [r["ms"] for r in recs])
        first = [r for r in recs if r["shape"] == recs[0]["shape"]]
        m["spearman_first_shape"] = cal.spearman([r["pred"] for r in first], [r["ms"] for r in first])
        report[task] = {"metrics": m, "records": recs}
        fmt = lambda v: "n/a" if v is None else f"{v:.2f}"
        print(f"| {task} | {m['n']} | {fmt(m['spearman'])} | {fmt(m['spearman_first_shape'])} | "
              f"{m['within_1_25x']:.2f} | {m['within_2x']:.2f} | {m['mape_pct']:.0f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
