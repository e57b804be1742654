#!/usr/bin/env python3
"""Pairs two finals' rows by shape (call 3: build 21 with the finish kernel against builds 22,
23 finished in the kernel): GPU time and host time per call on the rows both ran split-K.

    python3 bench/results/2026-12-06-library-kmeans-21/ab.py OLD.json NEW.json
    # e.g. call3-splitk-b21.json call3-splitk-b23.json
"""
import json
import math
import sys


def rows(path):
    with open(path) as f:
        return {(r["B"], r["N"], r["D"], r["K"], r["dtype"]): r for r in json.load(f)}


def geomean(v):
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else float("nan")


old, new = rows(sys.argv[1]), rows(sys.argv[2])
both = [k for k in old if k in new]
split = [k for k in both if "_ks" in new[k]["kernel"] and "_ks" in old[k]["kernel"]]
speed = [old[k]["cake_ms"] / new[k]["cake_ms"] for k in split]
print(f"{len(both)} shapes in both, {len(split)} ran split-K in both; all correct: "
      f"{all(old[k]['correct'] and new[k]['correct'] for k in both)}")
print(f"GPU time old / new on split-K rows: geomean {geomean(speed):.3f}, min {min(speed):.3f}, "
      f"max {max(speed):.3f}; median saved {median([(old[k]['cake_ms'] - new[k]['cake_ms']) * 1e3 for k in split]):.2f} us")
for field in ("host_us_dispatch", "host_us", "host_us_python"):
    a = [old[k][field] for k in split if old[k].get(field)]
    b = [new[k][field] for k in split if new[k].get(field)]
    print(f"{field}: median {median(a):.1f} -> {median(b):.1f} us")
for name, side in (("old", old), ("new", new)):
    print(f"{name} vs flashlib {geomean([side[k]['speedup_flashlib'] for k in both]):.3f}, "
          f"vs flash-kmeans {geomean([side[k]['speedup_flash_kmeans'] for k in both]):.3f}")
