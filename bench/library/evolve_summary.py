#!/usr/bin/env python3
"""A markdown table of a `cake library evolve` database: per bucket, the start (the sweep's best
configuration) and the fastest measured candidate, their cake-run times per shape in the same
batch, the table's times of the start configuration at its shapes (kmeans_bench, the library's
own timer: the same kernel, so their ratio checks cake-run's timing), and what the generation cost.

    python3 bench/library/evolve_summary.py --db lib.db [--json winners.json]
"""
import argparse
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "agent"))
sys.path.insert(0, os.path.join(ROOT, "libraries", "kmeans"))
from cake_agent.db import Database, Unreadable  # noqa: E402
from cake_agent.library_evolve import winners  # noqa: E402
import evolve  # noqa: E402


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def config_of(row, genome):
    """The candidate's kernel (its variant name less `km_<dtype>_`): configuration names leave out
    parameters the search changes (wgmma's buffers and stages)."""
    fixed = row["fixed"]
    p = dict(evolve.params_of(genome[1], fixed["optional"]), dtype=fixed["dtype"])
    return evolve.build.kernel_stem(p)


def task_comments():
    """{bucket: task comment} as the definition writes the tasks today (its committed table)."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        paths, _ = evolve.tasks(os.path.join(ROOT, "libraries", "kmeans"), d)
        out = {}
        for p in paths:
            with open(p) as f:
                c = json.load(f)["comment"]
            out[c["bucket"]] = c
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--json", help="also write the winners rows here")
    args = ap.parse_args()
    try:
        db = Database(args.db, readonly=True)
    except Unreadable as e:
        sys.exit(f"evolve_summary.py: {e}")
    rows = winners(db)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    counts = {r["task"]: dict(r) for r in db.q(
        "SELECT r.task, SUM(c.status='measured') AS measured, SUM(c.status='failed') AS failed, "
        "SUM(c.status='screened') AS screened FROM candidates c JOIN runs r ON r.id=c.run_id GROUP BY r.task")}
    print("| bucket | family | start (sweep's best) | best candidate (kernel) | best/start | start ms (cake-run) | "
          "start ms (table) | measured / failed / screened |")
    print("|---|---|---|---|---|---|---|---|")
    gains, ratios = [], []
    comments = None
    for r in rows:
        c = r["comment"]
        if "table_start_ms" not in c:   # a database from before the field: the task again
            if comments is None:
                comments = task_comments()
            now = comments.get(c["bucket"], {})   # its times only where the start is the same
            c = dict(c, table_start_ms=now.get("table_start_ms", []) if now.get("start_config") == c["start_config"] else [])
        keys = [json.dumps(s, sort_keys=True) for s in r["shapes"]]
        start_ms = [r["start"]["ms"][k] for k in keys if k in r["start"]["ms"]] if r["start"] else []
        best = config_of(r, r["best"]["genome"]) + ("+" + "+".join(r["best"]["tactics"]) if r["best"]["tactics"] else "")
        gain = r.get("best_over_start")
        if gain:
            gains.append(gain)
        if len(start_ms) == len(keys):
            ratios += [s / t for s, t in zip(start_ms, c["table_start_ms"])]
        n = counts.get(r["task"], {})
        print(f"| {c['bucket']} | {c['family']} | {c['start_config']} | {best} | "
              f"{gain:.3f} | " if gain else f"| {c['bucket']} | {c['family']} | {c['start_config']} | {best} | - | ",
              end="")
        print(f"{', '.join(f'{v * 1e3:.1f}' for v in start_ms)} us | "
              f"{', '.join(f'{v * 1e3:.1f}' for v in c['table_start_ms'])} us | "
              f"{n.get('measured', 0)} / {n.get('failed', 0)} / {n.get('screened', 0)} |")
    print(f"\n{len(rows)} buckets measured; best/start geomean {geomean(gains):.3f}, "
          f"{sum(g >= 1.03 for g in gains)} at >= 1.03x; cake-run's start time / the table's "
          f"(kmeans_bench) geomean {geomean(ratios):.3f} over {len(ratios)} shapes")


if __name__ == "__main__":
    main()
