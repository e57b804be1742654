"""How much of a staged kernel's time the staging (`pad`) kernel takes, on shapes whose D is not a
multiple of 16 bytes (session 23). For each shape: the GPU time of each kernel one call launches
(torch profiler, median of 30 calls), for the routed kernel and the table's best staged
configurations, forced.

    python3 bench/library/diag_pad.py PACKAGE/cake_library/library [B,N,D,K,DTYPE ...]

Shapes on the command line replace the default list. Each shape also prints two copies torch
makes of x, as the bandwidth the staging copy could reach: `clone` (x read and written whole) and
`pad` (x into rows of the staged pitch, as the `pad` kernel writes them).
"""
import os
import sys
# PACKAGE/cake_library/library: the package folder holds the cake_library module.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[1]))))
import torch
from cake_library import load
from kernel_times import kernel_times, median

lib = load(sys.argv[1])
DT = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}
SHAPES = [(2, 120214, 145, 71, "bfloat16"), (4, 36434, 462, 94, "float16"),
          (5, 32656, 159, 100, "float32"), (7, 156830, 216, 2, "float16"),
          (2, 120214, 152, 71, "bfloat16")]      # the same shape at an aligned D: no staging
if len(sys.argv) > 2:
    try:
        SHAPES = [tuple(int(v) for v in a.split(",")[:4]) + (a.split(",")[4],) for a in sys.argv[2:]]
    except (ValueError, IndexError):
        sys.exit("diag_pad.py: a shape is B,N,D,K,DTYPE (for example 2,120214,145,71,bfloat16)")
    if any(s[4] not in DT or min(s[:4]) < 1 for s in SHAPES):
        sys.exit(f"diag_pad.py: sizes must be >= 1 and the dtype one of {', '.join(DT)}")


def gpu_us(fn, reps=30):
    """Median GPU time of each kernel fn launches, in us."""
    return {n: round(median(t), 1) for n, t in kernel_times(fn, reps, warmup=3).items()}


for B, N, D, K, dt in SHAPES:
    g = torch.Generator(device="cuda").manual_seed(7)
    x = torch.randn(B, N, D, device="cuda", dtype=DT[dt], generator=g)
    c = torch.randn(B, K, D, device="cuda", dtype=DT[dt], generator=g)
    csq = (c.float() ** 2).sum(-1)
    out = torch.empty(B, N, device="cuda", dtype=torch.int32)
    legal = lib.router.legal(B, N, D, K, dt)
    routed = lib.route(B, N, D, K, dt)["kernel"]
    staged = [v["name"] for v in legal if v["staging"] != "none"]
    elem = x.element_size()
    pitch = -(-D * elem // 16) * 16 // elem
    staged_x = torch.zeros(B, N, pitch, device="cuda", dtype=DT[dt])
    mb = B * N * D * elem / 1e6
    for what, fn in (("clone", lambda: x.clone()),
                     ("pad", lambda: staged_x[..., :D].copy_(x))):
        t = sum(gpu_us(fn).values())
        print(f"B{B} N{N} D{D} K{K} {dt} torch {what} of x ({mb:.1f} MB, pitch {pitch}): {t:.1f} us",
              flush=True)
    names = [routed] + [n for n in staged if any(t in n for t in ("_c1_k32_w2", "_c1_k64_w2", "sd1_k128_w2", "sd2_k128_w2", "_mma_"))][:4]
    for name in names:
        med = gpu_us(lambda: lib.assign(x, c, c_sq=csq, out=out, kernel=name))
        print(f"B{B} N{N} D{D} K{K} {dt} {name}: " + ", ".join(f"{n} {t} us" for n, t in med.items()),
              flush=True)
