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
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "agent"))
from cake_agent import calibrate as cal  # noqa: E402
from cake_agent import cost as cost_mod  # noqa: E402
from cake_agent.tools import Toolchain  # noqa: E402


def predictions(toolchain, ir, shapes, scratch):
    """The model's time (ms, or None) per shape of one candidate: the harness's own cost step, all
    shapes in one cake-opt process."""
    path = os.path.join(scratch, "candidate.mlir")
    with open(path, "w") as f:
        f.write(ir)
    out = cost_mod.cost(toolchain, path, shapes, timeout=60)
    reports = out.get("report") or []
    if out["status"] != "ok" or len(reports) != len(shapes):
        return [None] * len(shapes)
    return [cost_mod.predicted_ms(r) for r in reports]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", action="append", required=True)
    ap.add_argument("--bin", help="folder of cake-opt (default build/bin)")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    toolchain = Toolchain(args.bin)
    by_task = {}
    with tempfile.TemporaryDirectory() as scratch:
        for path in args.db:
            db = sqlite3.connect(path)
            rows = db.execute(
                "SELECT r.task, c.id, c.ir, m.shape, MIN(m.time_ms) FROM measurements m "
                "JOIN candidates c ON c.id = m.candidate_id JOIN runs r ON r.id = c.run_id "
                "WHERE m.status = 'ok' GROUP BY c.id, m.shape ORDER BY c.id, m.shape").fetchall()
            by_candidate = {}
            for task, cid, ir, shape, ms in rows:
                by_candidate.setdefault(cid, (task, ir, []))[2].append((shape, ms))
            for cid, (task, ir, measured) in by_candidate.items():
                preds = predictions(toolchain, ir, [json.loads(s) for s, _ in measured], scratch)
                for (shape, ms), pred in zip(measured, preds):
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
