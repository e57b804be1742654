#!/usr/bin/env python3
"""KMeans assignment (examples/kmeans_hopper.mlir) vs flash-kmeans' euclid_assign_triton, one run.

  python3 bench/kmeans_hopper.py --cake-run DIR/cake-run --kernels DIR --flash-kmeans PATH [--json OUT]
      [--kernel NAME --fp16-only] [--flashlib PATH]

--kernel runs another fp16 D = 128 kernel with the same parameters (x, c, csq -> idx; for example
kmeans_blackwell on a B200, with --fp16-only); --flashlib adds flashlib's euclid_assign_triton
(c_sq passed) as a second anchor, timed the same way.

PATH is a folder holding svg-project/flash-kmeans' `flash_kmeans` package (public sources brought
beside the project; never committed). Both kernels get the same fp16 inputs (x ~ randn, centroids ~
randn, csq = |c|^2 and x_sq = |x|^2 precomputed in fp32; fp16 with D = 128 and fp32 with D = 64, where
both kernels read the fp32 operands as tf32); CAKE runs through cake-run on those files
(--input, --output-dir), timed with CUDA events (median); flash-kmeans with triton.testing.do_bench
(median), both with c_sq passed (its fastest path) and without. Assignments are compared with an fp32
torch reference: exact agreement, near-ties (the chosen centroid's fp32 distance within 1e-3
relative of the best), and real mismatches (anything else).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# (kernel, dtype, B, N, D, K): ANCHORS.md's KMeans shapes.
SHAPES = [("kmeans_hopper", "float16", 32, 16384, 128, 1024),
          ("kmeans_hopper", "float16", 32, 75600, 128, 1000),
          ("kmeans_hopper_f32", "float32", 8, 65536, 64, 256)]
# Tensor-core rates measured with cuBLAS 8192^3 on this H200 (ANCHORS.md): fp16, and tf32 for fp32.
TENSOR_FLOPS = {"float16": 674e12, "float32": 360e12}
BANDWIDTH = 4.24e12          # device-to-device copy (ANCHORS.md)


def judge(torch, x, c, csq, idx):
    """(exact agreement, near-tie share, real-mismatch share) of idx against fp32."""
    dist = csq[:, None, :] - 2.0 * torch.bmm(x.float(), c.float().transpose(1, 2))
    ref = dist.argmin(-1)
    chosen = dist.gather(-1, idx.long().unsqueeze(-1)).squeeze(-1)
    best = dist.gather(-1, ref.unsqueeze(-1)).squeeze(-1)
    xsq = (x.float() ** 2).sum(-1)
    scale = (xsq + best).abs() + 1.0
    same = idx.long() == ref
    near = (~same) & ((chosen - best) <= 1e-3 * scale)
    n = idx.numel()
    return same.sum().item() / n, near.sum().item() / n, ((~same) & (~near)).sum().item() / n


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cake-run", required=True)
    p.add_argument("--kernels", required=True)
    p.add_argument("--flash-kmeans", required=True)
    p.add_argument("--iters", type=int, default=50)
    p.add_argument("--json", default="")
    p.add_argument("--kernel", default="kmeans_hopper", help="the fp16 D = 128 kernel")
    p.add_argument("--fp16-only", action="store_true", help="skip the fp32 shape")
    p.add_argument("--flashlib", default="", help="folder holding the flashlib package")
    args = p.parse_args()
    if not os.access(args.cake_run, os.X_OK):
        p.error(f"--cake-run {args.cake_run}: not an executable")
    sys.path.insert(0, args.flash_kmeans)
    try:
        import torch
        from triton.testing import do_bench
        from flash_kmeans.assign_euclid_triton import euclid_assign_triton
        flashlib_assign = None
        if args.flashlib:
            sys.path.insert(0, args.flashlib)
            from flashlib.primitives.kmeans.triton.assign import \
                euclid_assign_triton as flashlib_assign
    except ImportError as e:
        sys.exit(f"kmeans_hopper.py: needs torch, triton, flash_kmeans (and flashlib with "
                 f"--flashlib): {e}")
    shapes = [(args.kernel if dtype == "float16" else kernel, dtype, B, N, D, K)
              for kernel, dtype, B, N, D, K in SHAPES
              if dtype == "float16" or not args.fp16_only]

    rows = []
    print(f"{'shape':<22} {'floor ms':>8} {'CAKE ms':>8} {'flash ms':>8} {'flash(no csq)':>13} "
          f"{'speedup':>7} {'CAKE exact/near/wrong':>24} {'flash exact/near/wrong':>24}")
    torch.manual_seed(0)
    for kernel, dtype, B, N, D, K in shapes:
        dt = getattr(torch, dtype)
        x = torch.randn(B, N, D, device="cuda", dtype=dt)
        c = torch.randn(B, K, D, device="cuda", dtype=dt)
        csq = (c.float() ** 2).sum(-1).contiguous()
        xsq = (x.float() ** 2).sum(-1).contiguous()
        floor = max(2.0 * B * N * K * D / TENSOR_FLOPS[dtype],
                    (x.numel() + c.numel()) * x.element_size() / BANDWIDTH + B * N * 4 / BANDWIDTH) * 1e3
        with tempfile.TemporaryDirectory() as tmp:
            for name, t in (("x", x), ("c", c), ("csq", csq)):
                t.cpu().numpy().tofile(os.path.join(tmp, name + ".bin"))
            cmd = [args.cake_run, "--cubin", os.path.join(args.kernels, kernel + ".cubin"),
                   "--manifest", os.path.join(args.kernels, kernel + ".json"),
                   "--sizes", f"B={B},N={N},K={K}",
                   "--input", ",".join(f"{n}={tmp}/{n}.bin" for n in ("x", "c", "csq")),
                   "--output-dir", tmp, "--iters", str(args.iters), "--timeout", "120"]
            rec = json.loads(subprocess.run(cmd, capture_output=True, text=True).stdout.strip()
                             .splitlines()[-1])
            rec["command"] = " ".join(cmd)
            import numpy as np
            idx = torch.from_numpy(np.fromfile(os.path.join(tmp, "idx.bin"), dtype=np.int32)
                                   ).view(B, N).cuda() if rec["status"] == "ok" else None
        out = torch.empty(B, N, device="cuda", dtype=torch.int32)
        flash = do_bench(lambda: euclid_assign_triton(x, c, xsq, out, c_sq=csq), warmup=50,
                         rep=300, return_mode="median")
        flash_nocsq = do_bench(lambda: euclid_assign_triton(x, c, xsq, out), warmup=50,
                               rep=300, return_mode="median")
        flashlib = None
        if flashlib_assign is not None:
            flashlib = do_bench(lambda: flashlib_assign(x, c, out, c_sq=csq), warmup=50, rep=300,
                                return_mode="median")
        euclid_assign_triton(x, c, xsq, out, c_sq=csq)
        fj = judge(torch, x, c, csq, out)
        cj = judge(torch, x, c, csq, idx) if idx is not None else (0, 0, 1)
        t = rec.get("time_ms")
        shape = f"B{B} N{N} D{D} K{K} {dtype[5:]}"
        print(f"{shape:<22} {floor:>8.3f} {t or float('nan'):>8.3f} {flash:>8.3f} {flash_nocsq:>13.3f} "
              f"{(flash / t) if t else float('nan'):>6.2f}x "
              f"{'%.5f/%.5f/%.5f' % cj:>24} {'%.5f/%.5f/%.5f' % fj:>24}", flush=True)
        if rec["status"] != "ok":
            print("   cake-run:", rec["status"], rec.get("error"))
        if flashlib is not None:
            print(f"   flashlib {flashlib:.3f} ms: CAKE {(flashlib / t) if t else float('nan'):.2f}x")
        rows.append({"kernel": kernel, "dtype": dtype, "shape": [B, N, D, K], "floor_ms": floor, "cake": rec, "flash_ms": flash,
                     "flash_no_csq_ms": flash_nocsq, "flashlib_ms": flashlib, "cake_agreement": cj,
                     "flash_agreement": fj})
        del x, c
        torch.cuda.empty_cache()
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    sys.exit(main())
