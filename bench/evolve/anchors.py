#!/usr/bin/env python3
"""Anchors for the harness's GPU evolution runs, measured in the same device call as the candidates.

  python3 bench/evolve/anchors.py --flash-kmeans DIR --json OUT [--tasks gemm,softmax,kmeans_assign]

Per task shape (agent/tasks/*.json): gemm / gemm_rb -> cuBLAS SGEMM (torch.matmul in fp32, TF32 off);
softmax -> torch.softmax over rows (fp32); kmeans_fp16 / kmeans_bf16 -> euclid_assign_triton on (B, N, 128) fp16 / bf16
with x_sq and c_sq; kmeans_assign -> flash-kmeans' euclid_assign_triton on
(1, N, D) fp32 with x_sq and c_sq precomputed (its fastest path; tl.dot reads fp32 as tf32, so it
does less exact arithmetic than the task asks). Times: triton.testing.do_bench, median, L2 flushed
between runs. DIR holds svg-project/flash-kmeans' `flash_kmeans` package (never committed).
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def task_shapes(name):
    with open(os.path.join(ROOT, "agent", "tasks", name + ".json")) as f:
        return json.load(f)["shapes"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--flash-kmeans", required=True)
    p.add_argument("--json", required=True)
    p.add_argument("--tasks", default="gemm,softmax,kmeans_assign")
    args = p.parse_args()
    sys.path.insert(0, args.flash_kmeans)
    import torch
    from triton.testing import do_bench
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.manual_seed(0)
    out = {"device": torch.cuda.get_device_name(), "method": "triton.testing.do_bench median (ms)",
           "anchors": {}}
    for task in args.tasks.split(","):
        rows = []
        for shape in task_shapes(task):
            row = {"shape": shape}
            try:
                if task in ("gemm", "gemm_rb"):
                    a = torch.randn(shape["M"], shape["K"], device="cuda")
                    b = torch.randn(shape["K"], shape["N"], device="cuda")
                    row["anchor"] = "cuBLAS SGEMM (torch.matmul fp32, tf32 off)"
                    row["ms"] = do_bench(lambda: torch.matmul(a, b), return_mode="median")
                elif task == "softmax":
                    x = torch.randn(shape["M"], shape["N"], device="cuda")
                    row["anchor"] = "torch.softmax fp32"
                    row["ms"] = do_bench(lambda: torch.softmax(x, dim=-1), return_mode="median")
                elif task in ("kmeans_fp16", "kmeans_bf16"):
                    from flash_kmeans.assign_euclid_triton import euclid_assign_triton
                    B, N, K = shape["B"], shape["N"], shape["K"]
                    dtype = torch.float16 if task == "kmeans_fp16" else torch.bfloat16
                    x = torch.randn(B, N, 128, device="cuda", dtype=dtype)
                    c = torch.randn(B, K, 128, device="cuda", dtype=dtype)
                    xsq = (x.float() ** 2).sum(-1)
                    csq = (c.float() ** 2).sum(-1)
                    o = torch.empty(B, N, dtype=torch.int32, device="cuda")
                    row["anchor"] = f"flash-kmeans euclid_assign_triton {task[-4:]}, c_sq given"
                    row["ms"] = do_bench(lambda: euclid_assign_triton(x, c, xsq, out=o, c_sq=csq),
                                         return_mode="median")
                elif task == "kmeans_assign":
                    from flash_kmeans.assign_euclid_triton import euclid_assign_triton
                    x = torch.randn(1, shape["N"], shape["D"], device="cuda")
                    c = torch.randn(1, shape["K"], shape["D"], device="cuda")
                    xsq = (x * x).sum(-1)
                    csq = (c * c).sum(-1)
                    o = torch.empty(1, shape["N"], dtype=torch.int32, device="cuda")
                    row["anchor"] = "flash-kmeans euclid_assign_triton fp32 (tf32 dot), c_sq given"
                    row["ms"] = do_bench(lambda: euclid_assign_triton(x, c, xsq, out=o, c_sq=csq),
                                         return_mode="median")
            except Exception as e:  # an anchor that cannot run this shape says why
                row["error"] = f"{type(e).__name__}: {e}"[:300]
            rows.append(row)
            print(task, shape, row.get("ms"), row.get("error", ""), flush=True)
        out["anchors"][task] = rows
    with open(args.json, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
