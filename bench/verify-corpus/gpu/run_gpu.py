#!/usr/bin/env python3
"""Device side of the GPU cross-check (python3 stdlib; numpy if present): runs every compiled
corpus kernel once with cake-run (seeded inputs, --timeout for hangs, no timing) at its header's
SIZES, and compares each paired buggy kernel's outputs with its correct counterpart's on the same
inputs. Writes one JSON record per kernel to OUT/gpu-results.json.

    python3 bench/verify-corpus/gpu/run_gpu.py --cake-run build/bin/cake-run --out $OUT [--only NAME,...]

With --sanitize TOOL|auto each kernel runs once under compute-sanitizer instead (records the
tool's hazard or error count beside cake-run's status).
"""
import argparse
import array
import json
import math
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None


# compute-sanitizer's tool per corpus class (--sanitize auto): racecheck sees shared-memory
# hazards, synccheck barrier misuse (divergent or miscounted bar.sync), memcheck addresses.
SANITIZER_TOOL = {"named-barrier": "synccheck", "cluster": "synccheck", "shape": "synccheck",
                  "smem-bounds": "memcheck"}


def sanitizer_verdict(tool, out):
    """(hazards or errors reported, the summary line) from compute-sanitizer's output."""
    for line in out.splitlines():
        line = line.strip("= ").strip()
        if line.startswith(("RACECHECK SUMMARY:", "ERROR SUMMARY:")):
            words = line.split(":", 1)[1].split()
            return (int(words[0]) if words and words[0].isdigit() else None), line
    return None, "no summary (the tool did not finish)"


def cake_run(exe, entry, sizes, outdir, timeout, seed, inouts="", scalars="", sanitize=None):
    cmd = [exe, "--cubin", os.path.join(REPO, entry["cubin"]), "--manifest", os.path.join(REPO, entry["manifest"]),
           "--sizes", sizes, "--seed", str(seed), "--no-time", "--timeout", str(timeout),
           "--output-dir", outdir]
    if scalars:
        cmd += ["--scalar", scalars]
    if inouts:
        cmd += ["--inouts", inouts]
    if sanitize:
        cmd = [sanitize[0], "--tool", sanitize[1], "--print-limit", "5"] + cmd
    os.makedirs(outdir, exist_ok=True)
    t0 = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout + 20)
    except subprocess.TimeoutExpired:
        # cake-run's own --timeout did not end it (a wedged worker): kill the whole group.
        try:
            os.killpg(proc.pid, 9)
        except ProcessLookupError:
            pass
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            out, err = "", ""
        return {"status": "runner_hung", "error": "cake-run did not return; killed",
                "wall_s": round(time.time() - t0, 2), "stderr": (err or "").strip()[-300:]}

    class P:
        pass
    p = P()
    p.stdout, p.stderr, p.returncode = out, err, proc.returncode
    rec = {}
    for line in p.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                pass
    result = {"status": rec.get("status", f"no-record rc={p.returncode}"), "error": rec.get("error"),
              "wall_s": round(time.time() - t0, 2), "stderr": p.stderr.strip()[-300:]}
    if sanitize:
        found, summary = sanitizer_verdict(sanitize[1], p.stdout + "\n" + p.stderr)
        result["sanitizer"] = {"tool": sanitize[1], "reported": found, "summary": summary}
    return result


def load(path, dtype):
    raw = open(path, "rb").read()
    if np is not None:
        if dtype == "bf16":
            u = np.frombuffer(raw, dtype=np.uint16).astype(np.uint32) << 16
            return u.view(np.float32).astype(np.float64)
        if dtype == "f16":
            return np.frombuffer(raw, dtype=np.float16).astype(np.float64)
        if dtype == "f32":
            return np.frombuffer(raw, dtype=np.float32).astype(np.float64)
        return np.frombuffer(raw, dtype=np.int32).astype(np.float64)
    if dtype == "bf16":
        h = array.array("H", raw)
        f = array.array("I", (x << 16 for x in h))
        return array.array("f", f.tobytes())
    return array.array("f" if dtype == "f32" else "i", raw)


def compare(a, b):
    """Relative L2 difference of finite entries, and the count of non-finite mismatches."""
    if np is not None:
        fa, fb = np.isfinite(a), np.isfinite(b)
        nonfinite = int(np.sum(fa != fb))
        m = fa & fb
        d = float(np.sqrt(np.sum((a[m] - b[m]) ** 2)))
        n = float(np.sqrt(np.sum(b[m] ** 2)))
        return (d / n if n else d), nonfinite, int(np.sum(a[m] != b[m]))
    d = n = 0.0
    nonfinite = diff = 0
    for x, y in zip(a, b):
        if math.isfinite(x) != math.isfinite(y):
            nonfinite += 1
            continue
        if not math.isfinite(x):
            continue
        d += (x - y) ** 2
        n += y * y
        diff += x != y
    return (math.sqrt(d) / math.sqrt(n) if n else math.sqrt(d)), nonfinite, diff


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cake-run", default=os.path.join(REPO, "build", "bin", "cake-run"))
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp/corpus-gpu"))
    ap.add_argument("--only", default="")
    ap.add_argument("--skip", default="")
    ap.add_argument("--skip-file", default="", help="a file with a comma list of kernel names to skip")
    ap.add_argument("--timeout", type=int, default=8)
    ap.add_argument("--seeds", default="7", help="comma list; a buggy kernel is rerun with the next seed\n"
                    "while its outputs still match the correct kernel's")
    ap.add_argument("--budget", type=float, default=540, help="stop starting runs after this many seconds")
    ap.add_argument("--start-at", default="", help="skip plan entries before this kernel name")
    ap.add_argument("--stop-at", default="", help="stop before this kernel name")
    ap.add_argument("--sanitize", default="", choices=["", "auto", "racecheck", "synccheck", "memcheck"],
                    help="run under compute-sanitizer: racecheck, synccheck, "
                    "memcheck, or auto (the tool of each kernel's class, SANITIZER_TOOL); one run per "
                    "kernel, no reference comparison")
    ap.add_argument("--compute-sanitizer", default="compute-sanitizer")
    ap.add_argument("--correct-first", action="store_true", help="every correct kernel before the buggy ones")
    args = ap.parse_args()
    if args.sanitize and not shutil.which(args.compute_sanitizer):
        ap.error(f"--compute-sanitizer {args.compute_sanitizer!r}: not found (give its path)")
    plan = json.load(open(os.path.join(HERE, "plan.json")))
    by_name = {e["name"]: e for e in plan if e["verdict"] == "correct"}
    only = set(filter(None, args.only.split(",")))
    skip = set(filter(None, args.skip.split(",")))
    if args.skip_file:
        skip |= set(filter(None, open(args.skip_file).read().strip().split(",")))
    work = os.path.join("/tmp", "corpus-gpu-work")
    results = []
    ref_cache = {}
    start = time.time()
    print("numpy:", np is not None, flush=True)
    started = not args.start_at
    if args.correct_first:
        plan = [e for e in plan if e["verdict"] == "correct"] + [e for e in plan if e["verdict"] != "correct"]
    for e in plan:
        if not started:
            if e["name"] != args.start_at:
                continue
            started = True
        if args.stop_at and e["name"] == args.stop_at:
            break
        if only and e["name"] not in only:
            continue
        if e["name"] in skip or not e["compiled"]:
            continue
        if time.time() - start > args.budget:
            print("budget exhausted", flush=True)
            break
        seeds = [int(x) for x in args.seeds.split(",")]
        sanitize = None
        if args.sanitize:
            tool = SANITIZER_TOOL.get(e["class"], "racecheck") if args.sanitize == "auto" else args.sanitize
            sanitize = (args.compute_sanitizer, tool)
        if e["verdict"] == "correct" or sanitize:
            seeds = seeds[:1]
        runs = []
        for seed in seeds:
            outdir = os.path.join(work, e["verdict"], e["name"], str(seed))
            r = cake_run(args.cake_run, e, e["sizes"], outdir, args.timeout, seed, e["inouts"], e["scalars"],
                         sanitize)
            run = {"seed": seed, **r}
            runs.append(run)
            if sanitize or not (e.get("ref") and r["status"] in ("ok", "wrong_result")):
                break
            ref = by_name[e["ref"]]
            key = (ref["name"], e["sizes"], seed)
            if key not in ref_cache:
                rdir = os.path.join(work, "ref", ref["name"] + "__" + e["sizes"].replace(",", "_"), str(seed))
                ref_cache[key] = (rdir, cake_run(args.cake_run, ref, e["sizes"], rdir, args.timeout, seed,
                                                 ref["inouts"], ref["scalars"]))
            rdir, rr = ref_cache[key]
            run["ref"] = ref["name"]
            run["ref_status"] = rr["status"]
            manifest = json.load(open(os.path.join(REPO, e["manifest"])))
            dtypes = {p["name"]: p.get("dtype") for p in manifest["kernels"][0]["params"]}
            diffs = {}
            for fn in sorted(os.listdir(outdir)):
                if fn.endswith(".bin") and os.path.exists(os.path.join(rdir, fn)):
                    nm = fn[:-4]
                    a = load(os.path.join(outdir, fn), dtypes.get(nm, "f32"))
                    b = load(os.path.join(rdir, fn), dtypes.get(nm, "f32"))
                    rel, nonfinite, ndiff = compare(a, b)
                    diffs[nm] = {"rel_l2": rel, "nonfinite_mismatch": nonfinite, "elements_differ": ndiff}
            run["vs_ref"] = diffs
            if e["verdict"] == "correct" or any(d["elements_differ"] or d["nonfinite_mismatch"] for d in diffs.values()) \
                    or r["status"] != "ok":
                break
        r = runs[-1]
        rec = {"name": e["name"], "verdict": e["verdict"], "class": e["class"], "sizes": e["sizes"],
               "runs": len(runs), "seeds": [x["seed"] for x in runs], **r}
        results.append(rec)
        short = rec.get("vs_ref")
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "gpu-results.json"), "w") as f:
            json.dump(results, f, indent=1)
        print(f"{e['verdict']:7s} {e['class']:14s} {e['name']:45s} {r['status']:14s} {r['wall_s']:6.1f}s "
              f"{json.dumps(short) if short is not None else ''} {(r['error'] or '')[:80]} "
              f"{r['sanitizer']['summary'] if 'sanitizer' in r else ''}", flush=True)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "gpu-results.json"), "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
