#!/usr/bin/env python3
"""Static against dynamic verdicts of the verify corpus: joins a GPU call's gpu-results.json
(run_gpu.py --sanitize) with a score.py --json file (cake-verify's findings per kernel) and prints
a markdown table (one row per kernel run) and the counts.

    python3 bench/verify-corpus/gpu/agreement.py GPU_RESULTS.json SCORE.json
"""
import collections
import json
import os
import sys


def dynamic(rec):
    """What the GPU showed: the sanitizer's report first, then how the run ended."""
    san = rec.get("sanitizer") or {}
    if san.get("reported"):
        return "sanitizer reports"
    return {"timeout": "hang", "launch_failure": "fault", "wrong_result": "wrong result"}.get(
        rec.get("status"), "clean")


def agreement(verdict, static_flags, dyn):
    if verdict == "correct":
        return "yes" if not static_flags and dyn == "clean" else "no"
    if static_flags:
        return "yes" if dyn != "clean" else "static only"
    return "dynamic only" if dyn != "clean" else "neither"


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    try:
        runs = json.load(open(argv[1]))
        score = json.load(open(argv[2]))
    except (OSError, ValueError) as e:
        sys.exit(f"agreement.py: {e}")
    static = {os.path.splitext(os.path.basename(f["file"]))[0]: f for f in score["files"]}
    counts = collections.Counter()
    print("| verdict | class | kernel | static (cake-verify) | tool | dynamic | agree |")
    print("|---|---|---|---|---|---|---|")
    for rec in runs:
        f = static.get(rec["name"])
        if f is None:
            sys.exit(f"agreement.py: {rec['name']} is not in {argv[2]}")
        rules = sorted(set(f.get("rules") or []))
        dyn = dynamic(rec)
        agree = agreement(rec["verdict"], rules, dyn)
        counts[(rec["verdict"], agree)] += 1
        tool = (rec.get("sanitizer") or {}).get("tool", "-")
        print(f"| {rec['verdict']} | {rec['class']} | {rec['name']} | {', '.join(rules) or 'clean'} | "
              f"{tool} | {dyn} | {agree} |")
    print()
    for (verdict, agree), n in sorted(counts.items()):
        print(f"- {verdict}, {agree}: {n}")


if __name__ == "__main__":
    main(sys.argv)
