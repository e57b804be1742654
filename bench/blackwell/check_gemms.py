#!/usr/bin/env python3
"""The Blackwell GEMM examples on a B200: checked against torch and timed against cuBLAS, one run.

  python3 bench/blackwell/check_gemms.py --cake-run build/bin/cake-run --kernels DIR [--json OUT]

DIR holds <kernel>.cubin and <kernel>.json for the kernels below (bench/blackwell/run_b200.sh
compiles them). Each kernel gets torch-generated inputs through cake-run (--input, --output-dir);
its output is compared with an fp32 torch product of the same (rounded) inputs, and it is timed by
cake-run (CUDA events, median). The anchor is cuBLAS through torch on the same inputs (bf16:
torch.matmul; fp8: torch._scaled_mm with unit scales), timed with triton.testing.do_bench
(median). Not run by the CAKE team: there is no B200 on our machines (issue #18).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# (kernel, operand dtype, has a bias): C = A B^T (+ bias) in f32.
KERNELS = [("blackwell_gemm", "bfloat16", False),
           ("blackwell_gemm_pair", "bfloat16", False),
           ("blackwell_gemm_persistent", "bfloat16", True),
           ("blackwell_gemm_fp8", "float8_e4m3fn", False)]
# Shapes (M, N, K): aligned, ragged M and N, and small.
SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096), (3000, 2056, 4096), (256, 256, 512)]


def cake_output(args, kernel, sizes, inputs, tmp, torch, shape):
    """Runs the kernel on the given tensors; (record, C or None)."""
    names = []
    for name, t in inputs.items():
        path = os.path.join(tmp, name + ".bin")
        t.contiguous().cpu().view(torch.uint8).numpy().tofile(path)
        names.append(f"{name}={path}")
    cmd = [args.cake_run, "--cubin", os.path.join(args.kernels, kernel + ".cubin"),
           "--manifest", os.path.join(args.kernels, kernel + ".json"),
           "--sizes", ",".join(f"{k}={v}" for k, v in sizes.items()),
           "--input", ",".join(names), "--output-dir", tmp, "--iters", str(args.iters),
           "--timeout", "120"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    lines = run.stdout.strip().splitlines()
    rec = json.loads(lines[-1]) if lines else {"status": "no_record", "error": run.stderr[-400:]}
    rec["command"] = " ".join(cmd)
    if rec.get("status") != "ok":
        return rec, None
    import numpy as np
    c = np.fromfile(os.path.join(tmp, "c.bin"), dtype=np.float32).reshape(shape)
    return rec, torch.from_numpy(c).cuda()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cake-run", required=True)
    p.add_argument("--kernels", required=True)
    p.add_argument("--iters", type=int, default=50)
    p.add_argument("--rtol", type=float, default=1e-3)
    p.add_argument("--json", default="")
    p.add_argument("--kernel", action="append", default=[], metavar="NAME:DTYPE[:bias]",
                   help="check these kernels (same a, b[, bias] -> c interface) instead of the "
                        "Blackwell list, e.g. hopper_gemm:bfloat16 on an H100/H200")
    args = p.parse_args()
    if not os.access(args.cake_run, os.X_OK):
        p.error(f"--cake-run {args.cake_run}: not an executable")
    if not os.path.isdir(args.kernels):
        p.error(f"--kernels {args.kernels}: not a folder")
    kernels = KERNELS
    if args.kernel:
        kernels = []
        for spec in args.kernel:
            parts = spec.split(":")
            if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "bias"):
                p.error(f"--kernel {spec}: expected NAME:DTYPE or NAME:DTYPE:bias")
            kernels.append((parts[0], parts[1], len(parts) == 3))
    try:
        import torch
        from triton.testing import do_bench
    except ImportError as e:
        sys.exit(f"check_gemms.py: needs torch and triton (a GPU machine): {e}")

    torch.manual_seed(0)
    rows, failures = [], 0
    print(f"{'kernel':<28} {'M N K':<18} {'max rel err':>11} {'CAKE ms':>8} {'cuBLAS ms':>9} "
          f"{'CAKE TF/s':>9} {'ratio':>6}")
    for kernel, dtype, has_bias in kernels:
        if not os.path.exists(os.path.join(args.kernels, kernel + ".cubin")):
            print(f"{kernel}: no cubin in {args.kernels}")
            failures += 1
            continue
        for M, N, K in SHAPES:
            dt = getattr(torch, dtype)
            a = (torch.randn(M, K, device="cuda") * 0.5).to(dt)
            b = (torch.randn(N, K, device="cuda") * 0.5).to(dt)
            inputs = {"a": a, "b": b}
            ref = a.float() @ b.float().t()
            if has_bias:
                bias = torch.randn(N, device="cuda")
                inputs["bias"] = bias
                ref = ref + bias
            with tempfile.TemporaryDirectory() as tmp:
                rec, c = cake_output(args, kernel, {"M": M, "N": N, "K": K}, inputs, tmp, torch,
                                     (M, N))
            err = float(((c - ref).abs().max() / ref.abs().max()).item()) if c is not None else None
            if dtype == "bfloat16":
                cublas = do_bench(lambda: a @ b.t(), warmup=25, rep=200, return_mode="median")
            else:
                one = torch.ones((), device="cuda")
                cublas = do_bench(lambda: torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one,
                                                           out_dtype=torch.float32),
                                  warmup=25, rep=200, return_mode="median")
            t = rec.get("time_ms")
            ok = err is not None and err <= args.rtol
            failures += not ok
            tflops = 2.0 * M * N * K / (t * 1e-3) / 1e12 if t else float("nan")
            print(f"{kernel:<28} {f'{M} {N} {K}':<18} "
                  f"{err if err is not None else float('nan'):>11.2e} "
                  f"{t or float('nan'):>8.3f} {cublas:>9.3f} {tflops:>9.1f} "
                  f"{(cublas / t) if t else float('nan'):>5.2f}x{'' if ok else '  FAILED'}",
                  flush=True)
            if rec.get("status") != "ok":
                print("   cake-run:", rec.get("status"), rec.get("error"))
            rows.append({"kernel": kernel, "dtype": dtype, "shape": [M, N, K], "max_rel_err": err,
                         "ok": ok, "cake": rec, "cublas_ms": cublas})
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
