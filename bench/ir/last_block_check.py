#!/usr/bin/env python3
"""A GPU check of cake.atomic_fetch_add (acq_rel) and cake.fence: the last-block kernel of
test/IR/atomic-fetch-add.mlir run by cake-run, its outputs checked here.

    python3 bench/ir/last_block_check.py prepare --out DIR     # here: cubin, manifest, inputs
    python3 bench/ir/last_block_check.py run --dir DIR          # GPU machine: cake-run + checks

What must hold, for several N (blocks of 32 threads, the last one partial): parts == x; total ==
the sum of parts in index order (the last block adds them sequentially, so bit-equal to numpy's
sequential float32 sum); count back at 0 after the launch (cake-run checks the input came back
bit-identical); within every block, the arrival slots of its valid threads distinct and in
[0, 32). A stale read of parts (an ordering bug) shows as a wrong total.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SIZES = (1, 32, 33, 4103, 65536 + 17)


def prepare(out):
    os.makedirs(out, exist_ok=True)
    tools = os.path.join(ROOT, "build", "bin")
    src = os.path.join(ROOT, "test", "IR", "atomic-fetch-add.mlir")
    subprocess.check_call([os.path.join(tools, "cake-translate"), src, "--emit=cubin", "-o",
                           os.path.join(out, "k.cubin"), "--manifest", os.path.join(out, "k.json")])
    rng = np.random.default_rng(40)
    for n in SIZES:
        rng.uniform(-1, 1, n).astype(np.float32).tofile(os.path.join(out, f"x{n}.bin"))
    np.zeros(1, np.int32).tofile(os.path.join(out, "zero.bin"))
    print(f"prepared {out}")


def run(folder, cake_run):
    for need in (cake_run, os.path.join(folder, "k.cubin")):
        if not os.path.isfile(need):
            sys.exit(f"last_block_check.py: {need} not found (build cake-run; run `prepare` first)")
    bad = 0
    for n in SIZES:
        res = os.path.join(folder, f"out{n}")
        os.makedirs(res, exist_ok=True)
        cmd = [cake_run, "--cubin", os.path.join(folder, "k.cubin"), "--manifest", os.path.join(folder, "k.json"),
               "--sizes", f"N={n}", "--input", f"x={folder}/x{n}.bin,count={folder}/zero.bin",
               "--outputs", "parts,total,order", "--output-dir", res, "--no-time"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        try:
            record = json.loads(p.stdout)
        except ValueError:
            record = {"status": "no record", "error": (p.stderr or p.stdout)[-300:]}
        x = np.fromfile(os.path.join(folder, f"x{n}.bin"), np.float32)
        checks = {"cake-run ok (count back at 0)": record.get("status") == "ok"}
        if checks["cake-run ok (count back at 0)"]:
            parts = np.fromfile(os.path.join(res, "parts.bin"), np.float32)
            total = np.fromfile(os.path.join(res, "total.bin"), np.float32)[0]
            order = np.fromfile(os.path.join(res, "order.bin"), np.int32)
            seq = np.float32(0)
            for v in x:
                seq = np.float32(seq + v)
            checks["parts == x"] = bool((parts == x).all())
            checks["total == sequential sum"] = bool(total == seq)
            checks["slots distinct per block"] = all(
                len(set(order[b:b + 32])) == len(order[b:b + 32]) and 0 <= order[b:b + 32].min()
                and order[b:b + 32].max() < 32 for b in range(0, n, 32))
        failed = [k for k, ok in checks.items() if not ok]
        bad += bool(failed)
        print(f"N={n}: {'ok' if not failed else 'FAILED ' + ', '.join(failed)} {record.get('status')} "
              f"{record.get('error', '')}")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("prepare").add_argument("--out", required=True)
    r = sub.add_parser("run")
    r.add_argument("--dir", required=True)
    r.add_argument("--cake-run", default=os.path.join(ROOT, "build", "bin", "cake-run"))
    args = ap.parse_args()
    if args.cmd == "prepare":
        prepare(args.out)
        return 0
    return run(args.dir, args.cake_run)


if __name__ == "__main__":
    sys.exit(main())
