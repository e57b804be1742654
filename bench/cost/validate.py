#!/usr/bin/env python3
"""Predicted vs measured for the recorded example runs (bench/results/*.json): each record is
predicted with the IR of the commit it was measured with (read with `git show`), with the
registers cake-run reported, on a profile. Prints a table and the accuracy metrics of
`cake calibrate`; --dataset writes the joined records for `agent/cake calibrate`.

  python3 bench/cost/validate.py [--profile profiles/h200.json] [--markdown out.md] [--dataset d.json]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "agent"))
from cake_agent import calibrate as cal  # noqa: E402

# results file -> {kernel: commit of its IR} (HEAD: the file as it is now).
SOURCES = {
    "2026-11-29-examples-h200.json": {"*": "HEAD"},
    "2026-11-29-examples-hopper-h200.json": {"hopper_gemm": "HEAD", "kmeans_hopper": "1a93d9e"},
    "2026-11-29-hopper-gemm-h200.json": {"hopper_gemm": "HEAD"},
    "2026-11-29-kmeans-hopper-h200.json": {"kmeans_hopper": "1a93d9e"},
    "2026-11-29-kmeans-hopper-h200-run2.json": {"kmeans_hopper": "bae8abb", "kmeans_hopper_f32": "bae8abb"},
    "2026-11-29-examples-kmeans-f32-h200.json": {"kmeans_hopper_f32": "bae8abb"},
    "2026-11-29-examples-kmeans-persistent-h200.json": {"*": "HEAD"},
    "2026-11-29-kmeans-hopper-persistent-h200.json": {"*": "HEAD"},
    # The Ampere path (sm_80 code run on the H200; examples/ampere_gemm.mlir is unchanged since).
    "2026-11-29-examples-ampere-h200.json": {"ampere_gemm": "HEAD"},
}


def ir_at(kernel, rev, tmp):
    path = os.path.join(tmp, f"{kernel}@{rev}.mlir")
    if not os.path.exists(path):
        text = subprocess.run(["git", "-C", ROOT, "show", f"{rev}:examples/{kernel}.mlir"],
                              capture_output=True, text=True, check=True).stdout
        with open(path, "w") as f:
            f.write(text)
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--profile", default=os.path.join(ROOT, "profiles", "h200.json"))
    ap.add_argument("--cake-opt", default=os.path.join(ROOT, "build", "bin", "cake-opt"))
    ap.add_argument("--markdown", help="write the table here")
    ap.add_argument("--dataset", help="write the joined records (for cake calibrate)")
    args = ap.parse_args(argv)
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, revs in SOURCES.items():
            path = os.path.join(ROOT, "bench", "results", name)
            if not os.path.exists(path):
                continue
            with open(path) as f:
                doc = json.load(f)
            for r in cal._walk_records(doc):
                if r.get("status") != "ok" or not r.get("time_ms"):
                    continue
                kernel = r["kernel"]
                rev = revs.get(kernel, revs.get("*"))
                if rev is None:
                    continue
                key = (kernel, rev, cal._size_key(r["sizes"]))
                rows.setdefault(key, {"kernel": kernel, "rev": rev, "sizes": r["sizes"], "times": [],
                                      "regs": r.get("num_regs"), "files": set()})
                rows[key]["times"].append(r["time_ms"])
                rows[key]["files"].add(name)
        data = []
        for key, row in sorted(rows.items()):
            ir = ir_at(row["kernel"], row["rev"], tmp)
            log = os.path.join(tmp, "ptxas.txt")
            with open(log, "w") as f:
                f.write(f"ptxas info    : Compiling entry function '{row['kernel']}' for 'sm_90a'\n"
                        f"ptxas info    : Used {row['regs']} registers\n")
            rep = cal.cost_report(args.cake_opt, ir, row["sizes"], args.profile)
            if row["regs"]:  # the registers cake-run reported, as a ptxas report
                sizes = ",".join(f"{k}={v}" for k, v in row["sizes"].items())
                res = subprocess.run([args.cake_opt, ir, f"--cake-print-cost=sizes={sizes} json=- "
                                      f"profile={args.profile} ptxas-report={log}", "-o", os.devnull],
                                     capture_output=True, text=True, check=True)
                rep = json.loads(res.stdout)["kernels"][0]
            times = sorted(row["times"])
            data.append({"variant": f"{row['kernel']}@{row['rev']}", "family": row["kernel"],
                         "group": row["kernel"], "sizes": row["sizes"], "time_ms": times[len(times) // 2],
                         "report": rep})
    with open(args.profile) as f:
        params = cal.profile_params(json.load(f))
    lines = ["| kernel (IR commit) | sizes | measured ms | predicted ms | pred/meas | bound (term) |",
             "|---|---|---|---|---|---|"]
    preds = []
    for d in data:
        p = cal.evaluate(d["report"]["model"], params) * 1e3
        preds.append(p)
        sizes = " ".join(f"{k}={v}" for k, v in d["sizes"].items())
        lines.append(f"| {d['variant']} | {sizes} | {d['time_ms']:.4f} | {p:.4f} | {p / d['time_ms']:.2f} | "
                     f"{d['report']['bound']} ({d['report']['bound_term']}) |")
    m = cal.metrics(preds, [d["time_ms"] for d in data])
    lines.append("")
    lines.append(f"n={m['n']} spearman={m['spearman']:.3f} within 1.25x: {m['within_1_25x']:.0%} "
                 f"within 2x: {m['within_2x']:.0%} MAPE: {m['mape_pct']:.1f}%")
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    if args.dataset:
        with open(args.dataset, "w") as f:
            json.dump({"records": data}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
