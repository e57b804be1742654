#!/usr/bin/env python3
"""Summarizes a batch evolution (bench/evolve/run_generation.sh) against its same-call anchors.

  python3 bench/evolve/summarize.py --db DB --raw DIR

DIR holds what each GPU call returned: <task>-g<G>.json (batch results) and anchors-g<G>.json. For
each run: candidates measured per generation, best-so-far after each generation, and the best
candidate's time per shape next to the anchor measured in the same GPU call (ratio = anchor / ours:
above 1 means faster than the anchor).
"""
import argparse
import json
import os
import sqlite3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--raw", required=True)
    args = ap.parse_args()
    db = sqlite3.connect(args.db)
    db.row_factory = sqlite3.Row
    for run in db.execute("SELECT * FROM runs ORDER BY id"):
        task = run["task"]
        cands = db.execute("SELECT * FROM candidates WHERE run_id=? ORDER BY id", (run["id"],)).fetchall()
        gens = sorted({c["generation"] for c in cands})
        print(f"## {task} (run {run['id']}, status {run['status']})\n")
        print("| generation | candidates | measured correct | failed | best so far (objective, ms) |")
        print("|---|---|---|---|---|")
        best = None
        for g in gens:
            cg = [c for c in cands if c["generation"] == g]
            ok = [c for c in cg if c["status"] == "measured"]
            for c in ok:
                if best is None or c["fitness"] < best["fitness"]:
                    best = c
            print(f"| {g} | {len(cg)} | {len(ok)} | {sum(c['status'] == 'failed' for c in cg)} | "
                  f"{best['fitness']:.4f} (candidate {best['id']}: {best['genome']} {best['tactics']}) |"
                  if best else f"| {g} | {len(cg)} | 0 | - | - |")
        first = next((c for c in cands if c["status"] == "measured"), None)
        if not best:
            print("\nno candidate measured correct\n")
            continue
        gen = best["generation"]
        with open(os.path.join(args.raw, f"anchors-g{gen}.json")) as f:
            anchors = json.load(f)["anchors"].get(task, [])
        # The seed itself may have been screened out (never measured): then say so.
        seed_measured = first is not None and first["id"] == cands[0]["id"]
        start = (f"the seed's start point (candidate {first['id']})" if seed_measured else
                 f"the first measured candidate ({first['id']}; the seed was {cands[0]['status']})")
        print(f"\nBest: candidate {best['id']} ({best['genome']}, tactics {best['tactics']}), measured in "
              f"generation {gen}'s GPU call; {start} "
              f"{first['fitness']:.4f} ms -> {first['fitness'] / best['fitness']:.2f}x.\n")
        print("| shape | best (ms) | anchor (ms, same call) | anchor / best | anchor |")
        print("|---|---|---|---|---|")
        for m in db.execute("SELECT shape, time_ms FROM measurements WHERE candidate_id=? ORDER BY id",
                            (best["id"],)):
            shape = json.loads(m["shape"])
            a = next((a for a in anchors if a["shape"] == shape), None)
            if a and "ms" in a:
                print(f"| {shape} | {m['time_ms']:.4f} | {a['ms']:.4f} | {a['ms'] / m['time_ms']:.3f} | {a['anchor']} |")
            else:
                print(f"| {shape} | {m['time_ms']:.4f} | - | - | {a.get('error') if a else 'none'} |")
        print()


if __name__ == "__main__":
    main()
