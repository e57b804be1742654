#!/usr/bin/env python3
"""Builds the GPU cross-check of the race, deadlock and cp.async rules: a sample of the mutants that
bench/verify_mutants.py seeds for them (statically rejected with that rule), compiled for sm_90a with
the hang-debug lowering, and a plan for bench/sanitize_examples.py.

  python3 bench/verify_mutants.py --emit-corpus /tmp/mut --json /tmp/mut.json
  python3 bench/crosscheck_new_rules.py /tmp/mut /tmp/mut.json .device/san2
  # GPU machine: cd .device && python3 ../bench/sanitize_examples.py --cake-run ./cake-run \
  #     --kernels san2 --plan san2/plan.json --json $OUT/crosscheck.json
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Kernels with pipelines get enough tiles that each wraps around its stages several times: a
# deadlock that closes at iteration `stages` needs them.
SIZES = {"gemm": "M=512,N=512,K=512", "ampere_gemm": "M=512,N=512,K=512",
         "hopper_gemm": "M=512,N=512,K=512", "hopper_gemm_bf16": "M=512,N=512,K=512",
         "hopper_gemm_rs": "M=512,N=512,K=512", "kmeans_hopper": "B=1,N=65536,K=4096",
         "kmeans_hopper_f32": "B=1,N=65536,K=4096", "kmeans_mbarrier": "B=1,N=65536,K=4096",
         "kmeans_assign": "N=1024,K=256,D=64", "tma_multicast": "M=4096"}
REFS = {"gemm": "gemm", "ampere_gemm": "ampere_gemm", "hopper_gemm": "hopper_gemm",
        "hopper_gemm_bf16": "hopper_gemm", "hopper_gemm_rs": "hopper_gemm",
        "kmeans_hopper": "kmeans_hopper", "kmeans_hopper_f32": "kmeans_hopper_f32",
        "kmeans_mbarrier": "kmeans_hopper", "kmeans_assign": "kmeans_assign",
        "tma_multicast": "tma_multicast"}
RTOL = {"hopper_gemm_bf16": 5e-3, "kmeans_hopper_f32": 1e-5, "tma_multicast": 1e-7}
# Per rule: how many mutants of each base to take (all of the rarer ones).
TAKE = {"race.missing-barrier": 9, "race.cross-role": 9, "deadlock.cyclic-wait": 9,
        "async.cp-async-align": 2, "async.cp-async-row-overrun": 2, "deadlock.branch-participation": 1}


def main():
    corpus, report, out = sys.argv[1:4]
    rows = json.load(open(report))["mutants"]
    os.makedirs(out, exist_ok=True)
    plan, taken = [], {}
    for r in rows:
        rule = r["expected"]
        if rule not in TAKE or not r["caught"]:
            continue
        key = (r["base"], rule)
        if taken.get(key, 0) >= TAKE[rule]:
            continue
        taken[key] = taken.get(key, 0) + 1
        name = f"{r['base']}--{r['mutant']}"
        src = os.path.join(corpus, name + ".mlir")
        entry_ref = REFS[r["base"]]
        cmd = [os.path.join(ROOT, "build", "bin", "cake-translate"), src, "--emit=cubin", "--chip=sm_90a",
               "--hang-timeout-ms=500", "--manifest", os.path.join(out, name + ".json"),
               "-o", os.path.join(out, name + ".cubin")]
        if subprocess.run(cmd, capture_output=True).returncode != 0:
            print("does not compile:", name)
            continue
        item = {"name": name, "cubin": name + ".cubin", "manifest": name + ".json",
                "sizes": SIZES[r["base"]], "static": rule,
                "ref": f"../ref/{entry_ref}_ref.cubin", "rtol": RTOL.get(r["base"], 1e-4)}
        if r["base"] == "hopper_gemm_rs":  # its reference is hopper_gemm's
            item["ref_entry"] = "hopper_gemm_ref"
        plan.append(item)
    json.dump(plan, open(os.path.join(out, "plan.json"), "w"), indent=1)
    print(len(plan), "mutants in", out)


if __name__ == "__main__":
    main()
