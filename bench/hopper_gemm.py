#!/usr/bin/env python3
"""Hopper GEMM (examples/hopper_gemm.mlir) vs cuBLAS (torch) in one run on the GPU machine.

  python3 bench/hopper_gemm.py --cake-run DIR/cake-run --kernels DIR --refs DIR [--json OUT]
      [--kernel blackwell_gemm --ref-entry hopper_gemm_ref --no-bf16-out]

`--kernel` names another f32-out GEMM of the same signature (examples/blackwell_gemm.mlir on a
B200: bench/blackwell/run_b200.sh); `--no-bf16-out` skips the bf16-output twin.

For each shape: cake-run checks the CAKE kernel against the reference (bf16 inputs, fp32
accumulation, rtol 1e-4) and times it (CUDA events, median); torch times cuBLAS on the same shapes
(`a @ b.T`, bf16 in; bf16 out, and f32 out where torch offers out_dtype) with
triton.testing.do_bench (median). Prints TFLOP/s and the ratio to cuBLAS.
"""
import argparse
import json
import os
import subprocess
import sys

SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096), (8191, 8189, 4096)]


def cake(args, m, n, k, seed, kernel="hopper_gemm", rtol="1e-4"):
    cmd = [args.cake_run, "--cubin", os.path.join(args.kernels, kernel + ".cubin"),
           "--manifest", os.path.join(args.kernels, kernel + ".json"),
           "--sizes", f"M={m},N={n},K={k}", "--seed", str(seed), "--rtol", rtol,
           "--ref", os.path.join(args.refs, "hopper_gemm_ref.cubin"), "--warmup", "10",
           "--iters", str(args.iters), "--timeout", "120"]
    if args.ref_entry:
        cmd += ["--ref-entry", args.ref_entry]
    out = subprocess.run(cmd, capture_output=True, text=True)
    rec = json.loads(out.stdout.strip().splitlines()[-1])
    rec["command"] = " ".join(cmd)
    return rec


def cublas(m, n, k):
    import torch
    from triton.testing import do_bench
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    res = {"bf16_out_ms": do_bench(lambda: a @ b.T, warmup=50, rep=300, return_mode="median")}
    try:
        res["f32_out_ms"] = do_bench(lambda: torch.mm(a, b.T, out_dtype=torch.float32),
                                     warmup=50, rep=300, return_mode="median")
    except (TypeError, RuntimeError) as e:
        res["f32_out_error"] = str(e)[:200]
    return res


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cake-run", required=True)
    p.add_argument("--kernels", required=True)
    p.add_argument("--refs", required=True)
    p.add_argument("--iters", type=int, default=50)
    p.add_argument("--json", default="")
    p.add_argument("--kernel", default="hopper_gemm")
    p.add_argument("--no-bf16-out", action="store_true")
    p.add_argument("--ref-entry", default="", help="the reference's entry, when not <kernel>_ref")
    args = p.parse_args()
    rows = []
    print(f"{'shape':<18} {'check':<8} {'cake ms':>8} {'TFLOP/s':>8} {'cuBLAS ms':>9} {'TFLOP/s':>8} "
          f"{'ratio':>6} {'cuBLAS f32-out ms':>17} {'ratio':>6}")
    for m, n, k in SHAPES:
        flops = 2.0 * m * n * k
        recs = [cake(args, m, n, k, seed, args.kernel) for seed in (1, 2, 3)]
        ok = all(r["status"] == "ok" for r in recs)
        t = recs[0].get("time_ms")
        cb = cublas(m, n, k)
        tf = flops / (t * 1e-3) / 1e12 if t else float("nan")
        cbt = flops / (cb["bf16_out_ms"] * 1e-3) / 1e12
        f32 = cb.get("f32_out_ms")
        print(f"{m}x{n}x{k:<8} {'ok' if ok else 'FAIL':<8} {t or float('nan'):>8.3f} {tf:>8.1f} "
              f"{cb['bf16_out_ms']:>9.3f} {cbt:>8.1f} {cbt and tf / cbt:>6.2f} "
              f"{f32 or float('nan'):>17.3f} {(f32 / t) if (f32 and t) else float('nan'):>6.2f}",
              flush=True)
        if not ok:
            for r in recs:
                print("   ", r["status"], r.get("error"), [(o["name"], o.get("rel_err")) for o in r.get("outputs", [])])
        if args.no_bf16_out:
            rows.append({"shape": [m, n, k], "cake": recs, "cublas": cb})
            continue
        # The bf16-output twin against cuBLAS's bf16 output (the same bytes written).
        bf = [cake(args, m, n, k, seed, "hopper_gemm_bf16", "5e-3") for seed in (1, 2, 3)]
        tb = bf[0].get("time_ms")
        print(f"  bf16 out: {'ok' if all(r['status'] == 'ok' for r in bf) else 'FAIL'} "
              f"{tb or float('nan'):.3f} ms, {flops / (tb * 1e-3) / 1e12 if tb else float('nan'):.1f} "
              f"TFLOP/s, {cb['bf16_out_ms'] / tb if tb else float('nan'):.2f}x cuBLAS bf16-out "
              f"(rel err {bf[0]['outputs'][0]['rel_err'] if bf[0].get('outputs') else float('nan'):.2e})",
              flush=True)
        rows.append({"shape": [m, n, k], "cake": recs, "cake_bf16": bf, "cublas": cb})
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    sys.exit(main())
