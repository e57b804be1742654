#!/usr/bin/env python3
"""Generates the cost-model sweep: >= 50 variants each of the Hopper GEMM and the Hopper KMeans
assignment (tiles, stages, swizzle, wgmma wait depth), compiles each with cake-translate (cubin,
manifest, ptxas log) and writes its cost report per shape (cake-opt --cake-print-cost with the
ptxas registers). The GPU side is bench/cost/run_sweep.py; calibration is `agent/cake calibrate`.

  python3 bench/cost/sweep.py --out build/cost-sweep            # here (CPU): generate + compile
  python3 bench/cost/run_sweep.py --sweep build/cost-sweep ...   # on the GPU machine
  agent/cake calibrate sweep-results.json --reports build/cost-sweep/reports/*.json \\
      --profile profiles/h200.json -o profiles/h200.json        # back here

docs/CostModel.md, "The sweep".
"""
import argparse
import concurrent.futures
import itertools
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import templates  # noqa: E402

SMEM_LIMIT = 232448  # H100/H200: 227 KiB per block

FAMILIES = {
    "hopper_gemm": {
        "template": templates.gemm, "smem": templates.gemm_smem,
        "space": {"BM": [64, 128], "BN": [64, 128, 256], "SW": [128, 64, 32], "ST": [2, 3, 4, 5, 6],
                  "WAIT": [0, 1]},
        "seed": {"BM": 128, "BN": 256, "SW": 128, "ST": 4, "WAIT": 1},
        "shapes": [{"M": 8192, "N": 8192, "K": 8192}, {"M": 4096, "N": 4096, "K": 4096},
                   {"M": 2048, "N": 2048, "K": 4096}],
    },
    "kmeans_hopper": {
        "template": templates.kmeans, "smem": templates.kmeans_smem,
        "space": {"BM": [64, 128], "BN": [64, 128, 256], "SW": [128, 64, 32], "ST": [1, 2, 3, 4]},
        "seed": {"BM": 128, "BN": 256, "SW": 128, "ST": 2},
        "shapes": [{"B": 32, "N": 16384, "K": 1024}, {"B": 32, "N": 75600, "K": 1000},
                   {"B": 1, "N": 1048576, "K": 4096}],
    },
}


def variant_name(family, params):
    return family + "-" + "-".join(f"{k}{v}" for k, v in params.items())


def configs(family, count, rng):
    spec = FAMILIES[family]
    keys = list(spec["space"])
    valid = [dict(zip(keys, vals)) for vals in itertools.product(*spec["space"].values())]
    valid = [c for c in valid if spec["smem"](**c) <= SMEM_LIMIT]
    rng.shuffle(valid)
    chosen = [spec["seed"]] + [c for c in valid if c != spec["seed"]]
    return chosen[:count]


def build(out, family, params, tools, profile):
    spec = FAMILIES[family]
    name = variant_name(family, params)
    ir = os.path.join(out, "ir", name + ".mlir")
    with open(ir, "w") as f:
        f.write(spec["template"](**params))
    kdir = os.path.join(out, "kernels")
    cubin, manifest, log = (os.path.join(kdir, name + ext) for ext in (".cubin", ".json", ".ptxas.txt"))
    res = subprocess.run([tools["cake-translate"], ir, "--emit=cubin", "-o", cubin, "--manifest", manifest,
                          "--ptxas-log", log], capture_output=True, text=True)
    entry = {"variant": name, "family": family, "kernel": family, "params": params,
             "ir": os.path.relpath(ir, out), "cubin": os.path.relpath(cubin, out),
             "manifest": os.path.relpath(manifest, out), "shapes": spec["shapes"]}
    if res.returncode != 0:
        entry["error"] = res.stderr.strip()[-2000:]
        return entry
    reports = {"schema": "cake-cost-report", "version": 1, "variant": name, "kernels": []}
    for shape in spec["shapes"]:
        sizes = ",".join(f"{k}={v}" for k, v in shape.items())
        opts = f"sizes={sizes} json=- ptxas-report={log}" + (f" profile={profile}" if profile else "")
        res = subprocess.run([tools["cake-opt"], ir, f"--cake-print-cost={opts}", "-o", os.devnull],
                             capture_output=True, text=True)
        if res.returncode != 0:
            entry["error"] = res.stderr.strip()[-2000:]
            return entry
        reports["kernels"].extend(json.loads(res.stdout)["kernels"])
    path = os.path.join(out, "reports", name + ".json")
    with open(path, "w") as f:
        json.dump(reports, f)
    entry["report"] = os.path.relpath(path, out)
    entry["predicted_ms"] = [k["predicted_time_ms"] for k in reports["kernels"]]
    return entry


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="output folder (ir/, kernels/, reports/, sweep.json)")
    ap.add_argument("--count", type=int, default=60, help="variants per family (>= 50)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--profile", help="profile for the reports (default: the target's)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    tools = {t: os.path.join(args.bin, t) for t in ("cake-opt", "cake-translate")}
    for d in ("ir", "kernels", "reports"):
        os.makedirs(os.path.join(args.out, d), exist_ok=True)
    rng = random.Random(args.seed)
    jobs = [(fam, c) for fam in FAMILIES for c in configs(fam, args.count, rng)]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        entries = list(pool.map(lambda j: build(args.out, j[0], j[1], tools, args.profile), jobs))
    bad = [e for e in entries if "error" in e]
    with open(os.path.join(args.out, "sweep.json"), "w") as f:
        json.dump({"schema": "cake-cost-sweep", "version": 1, "variants": entries}, f, indent=1)
    for fam in FAMILIES:
        ok = [e for e in entries if e["family"] == fam and "error" not in e]
        print(f"{fam}: {len(ok)} variants compiled, {len([e for e in bad if e['family'] == fam])} failed")
    for e in bad:
        print(f"FAILED {e['variant']}: {e['error'].splitlines()[-1] if e['error'] else ''}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
