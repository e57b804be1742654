#!/usr/bin/env python3
"""Replays a learned rule over every candidate a run recorded: which of them the rule flags at the
verify step, by the status and failure class the run gave them (without the rule).

    python3 bench/evolve/rule_replay.py --db DB --rule RULE.pdl [--bin build/bin]

A rule that prevents a failure class flags each candidate of that class and no candidate that
compiled (or passed); the counts are the "before" (what reached the compiler or the GPU) and the
"after" (what the verify step would have stopped)."""
import argparse
import collections
import os
import sqlite3
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "agent"))
from cake_agent import learn  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--rule", required=True, help="a learned rule (PDL file with one pattern)")
    ap.add_argument("--bin", default=os.path.join("build", "bin"))
    args = ap.parse_args()
    cake_opt = os.path.join(args.bin, "cake-opt")
    name = os.path.basename(args.rule).rsplit(".", 1)[0]
    db = sqlite3.connect(args.db)
    rows = db.execute("SELECT id, status, COALESCE(failure_class, ''), ir FROM candidates ORDER BY id").fetchall()
    counts = collections.Counter()
    flagged = []
    for cid, status, failure, ir in rows:
        hit, _ = learn.flags(cake_opt, args.rule, name, ir)
        key = f"{status}{'/' + failure if failure else ''}"
        counts[(key, hit)] += 1
        if hit:
            flagged.append((cid, key))
    print(f"{len(rows)} candidates of {args.db}; rule {name}")
    print("| status (without the rule) | candidates | flagged by the rule |")
    print("|---|---|---|")
    for key in sorted({k for k, _ in counts}):
        total = counts[(key, True)] + counts[(key, False)]
        print(f"| {key} | {total} | {counts[(key, True)]} |")
    print("flagged: " + (", ".join(f"{c} ({k})" for c, k in flagged) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
