#!/usr/bin/env python3
"""Times the same work through the batch backend's way and through the ray backend.

    # a kernel library's measure phase (on the GPU machine: torch, the built library, the anchors):
    python3 bench/ray/compare_backends.py library --library .device/klib --grid libraries/kmeans/grid.json \
        --phase final --anchors /tmp/cake-anchors --chunk 12 [--limit 120] --out $OUT/ray-library
    # an evolution (a machine that compiles and has GPUs; or, for the harness's own overhead only,
    # the stand-in cake-run and GPUs declared to a local cluster: --declare-gpus 2):
    python3 bench/ray/compare_backends.py evolve --task agent/tasks/gemm.json --candidates 12 \
        --generation 4 --out /tmp/ray-evolve [--bin DIR] [--refs DIR] [--declare-gpus N]

library: batch = one kmeans_bench.py process over the shapes on one GPU (as bench/library/run_h200.sh);
ray = the same shapes in slices of --chunk, one GPU job per slice (each slice's anchors and kernels
in one process on one GPU, so every ratio is a same-GPU ratio), rows or points merged. evolve: batch =
export, run_batch.py, ingest and resume until the run ends; ray = one `cake evolve --backend ray`.
Writes OUT/compare.json (wall time per backend and GPU count) and prints it.
"""
import argparse
import json
import os
import sqlite3
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "agent"))
from cake_agent import ray_backend, ray_pool  # noqa: E402

CAKE = [os.path.join(ROOT, "agent", "cake")]
BENCH = os.path.join(ROOT, "bench", "library", "kmeans_bench.py")


def library(args):
    with open(args.grid) as f:
        n = len(json.load(f)["shapes"])
    n = min(n, args.limit) if args.limit else n
    base = [sys.executable, BENCH, "--library", os.path.abspath(args.library), "--grid", os.path.abspath(args.grid),
            "--phase", args.phase, "--anchors", args.anchors]
    out = {"phase": args.phase, "shapes": n}
    t0 = time.monotonic()
    batch_out = os.path.join(args.out, "batch.json")
    r = subprocess.run(base + ["--start", "0", "--limit", str(n), "--out", batch_out], cwd=ROOT,
                       env=dict(os.environ, CUDA_VISIBLE_DEVICES=os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0]),
                       capture_output=True, text=True)
    out["batch"] = {"wall_s": round(time.monotonic() - t0, 2), "gpus": 1, "returncode": r.returncode,
                    "tail": (r.stdout + r.stderr)[-500:]}
    t0 = time.monotonic()
    backend = ray_backend.RayBackend(address=args.ray_address)  # a local cluster of every GPU here
    start_s = time.monotonic() - t0  # reported apart: the batch way starts no cluster
    t0 = time.monotonic()
    starts = list(range(0, n, args.chunk))
    cmds = [base + ["--start", str(s), "--limit", str(min(args.chunk, n - s)), "--out", "{out}/part.json"]
            for s in starts]
    jobs, parts = [], []
    for i, res in backend.run_commands(cmds, args.timeout):
        if isinstance(res, ray_pool.Lost):
            jobs.append({"start": starts[i], "lost": f"{res.cls}: {res.detail}"})
            continue
        jobs.append({"start": starts[i], "gpu": res["gpu"], "seconds": res["seconds"], "status": res["status"],
                     "returncode": res["returncode"], "tail": res["tail"][-300:]})
        if "part.json" in res["files"]:
            parts.append((starts[i], json.loads(res["files"]["part.json"]), res["gpu"]))
    wall = time.monotonic() - t0
    merged = merge(sorted(parts, key=lambda x: x[0]))
    with open(os.path.join(args.out, "ray.json"), "w") as f:
        json.dump(merged, f, indent=0)
    out["ray"] = {"wall_s": round(wall, 2), "cluster_start_s": round(start_s, 2), "gpus": backend.gpus,
                  "jobs": sorted(jobs, key=lambda j: j["start"])}
    out["same_count"] = count(merged) == count(_load(batch_out))
    backend.close()
    return out


def merge(parts):
    """[(start, output, gpu)] in grid order -> rows (final, lloyd: lists) or points (tune), each
    naming the GPU that measured it (its anchors ran in the same process, on the same GPU)."""
    name = lambda g: g.get("uuid") or g.get("label")  # noqa: E731
    if all(isinstance(doc, list) for _, doc, _ in parts):
        return [dict(row, gpu=name(g)) for _, doc, g in parts for row in doc]
    points = [dict(pt, gpu=name(g)) for _, doc, g in parts for pt in doc.get("points", [])]
    return {"points": points, "neighbours": parts[0][1].get("neighbours", 4) if parts else 4}


def count(doc):
    return len(doc) if isinstance(doc, list) else len((doc or {}).get("points", []))


def _load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def evolve(args):
    common = ["--candidates", str(args.candidates), "--generation", str(args.generation), "--quiet",
              "--rng-seed", str(args.rng_seed)] + (["--bin", args.bin] if args.bin else []) + \
             (["--refs", args.refs] if args.refs else [])
    out = {"task": args.task, "candidates": args.candidates}
    db = os.path.join(args.out, "batch.db")
    t0 = time.monotonic()
    gen = 0
    cmd = CAKE + ["evolve", args.task, "--db", db, "--backend", "batch"] + common
    while True:
        batch_dir = os.path.join(args.out, f"batch-g{gen}")
        subprocess.run(cmd + ["--batch-dir", batch_dir], check=True, capture_output=True)
        if _status(db) != "waiting_gpu":
            break
        subprocess.run([sys.executable, os.path.join(batch_dir, "run_batch.py")], check=True, capture_output=True)
        subprocess.run(CAKE + ["batch-ingest", "--db", db, os.path.join(batch_dir, "results.json")], check=True,
                       capture_output=True)
        cmd = CAKE + ["evolve", "--db", db, "--resume"] + common
        gen += 1
    out["batch"] = {"wall_s": round(time.monotonic() - t0, 2), "gpus": 1, "generations": gen + 1,
                    "measured": _measured(db)}
    db = os.path.join(args.out, "ray.db")
    if args.declare_gpus:  # the cluster must be made with the declared GPUs: in this process
        from cake_agent import cli
        ray_pool.import_ray().init(num_gpus=args.declare_gpus, include_dashboard=False, log_to_driver=False)
        t0 = time.monotonic()  # (the local cluster's start is not counted: the batch way has none)
        rc = cli.main(["evolve", args.task, "--db", db, "--backend", "ray"] + common)
    else:  # counted: starting (or joining) the cluster is part of this way
        t0 = time.monotonic()
        rc = subprocess.run(CAKE + ["evolve", args.task, "--db", db, "--backend", "ray"] + common +
                            (["--ray-address", args.ray_address] if args.ray_address else [])).returncode
    out["ray"] = {"wall_s": round(time.monotonic() - t0, 2), "returncode": rc, "measured": _measured(db)}
    return out


def _status(db):
    with sqlite3.connect(db) as c:
        return c.execute("SELECT status FROM runs ORDER BY id DESC LIMIT 1").fetchone()[0]


def _measured(db):
    with sqlite3.connect(db) as c:
        return c.execute("SELECT COUNT(*) FROM candidates WHERE status='measured'").fetchone()[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    lib = sub.add_parser("library")
    lib.add_argument("--library", required=True)
    lib.add_argument("--grid", default=os.path.join(ROOT, "libraries", "kmeans", "grid.json"))
    lib.add_argument("--phase", choices=("tune", "final", "lloyd"), default="final")
    lib.add_argument("--anchors", default="")
    lib.add_argument("--chunk", type=int, default=12, help="shapes per GPU job")
    lib.add_argument("--limit", type=int, default=0, help="only the first N shapes of the grid")
    lib.add_argument("--timeout", type=float, default=3600, help="seconds one slice may take")
    ev = sub.add_parser("evolve")
    ev.add_argument("--task", default=os.path.join(ROOT, "agent", "tasks", "gemm.json"))
    ev.add_argument("--candidates", type=int, default=12)
    ev.add_argument("--generation", type=int, default=4)
    ev.add_argument("--rng-seed", type=int, default=3)
    ev.add_argument("--bin")
    ev.add_argument("--refs")
    for p in (lib, ev):
        p.add_argument("--out", required=True)
        p.add_argument("--ray-address")
    ev.add_argument("--declare-gpus", type=int, default=0,
                    help="start a local cluster with N GPU units (a dry run with the stand-in cake-run)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    result = library(args) if args.what == "library" else evolve(args)
    with open(os.path.join(args.out, "compare.json"), "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps({k: v for k, v in result.items() if k != "ray"} | {"ray_wall_s": result["ray"]["wall_s"]}))


if __name__ == "__main__":
    sys.exit(main())
