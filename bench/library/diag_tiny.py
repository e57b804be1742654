"""Where a tiny shape's time goes: CAKE's routed call against flashlib's assign on shapes whose
whole call is 1.4-2 us (the grid's smallest). For each: the graph time (kmeans_bench's timer),
the kernels each call launches with their median GPU durations (torch profiler: durations do not
depend on how the host feeds the GPU), and the routed kernel's registers, block and grid.
The difference between graph time and duration is launch cost; between durations, the kernel.

    python3 bench/library/diag_tiny.py PACKAGE/cake_library/library ANCHOR_SITE [SHAPES.json]

SHAPES.json (optional): [[B, N, D, K, dtype], ...] instead of the built-in shapes; flash-kmeans'
assign (c_sq and |x|^2 given) is timed beside flashlib's.
"""
import json
import sys

sys.path.insert(0, "bench/library")
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import torch  # noqa: E402
from kernel_times import kernel_times, median  # noqa: E402
from kmeans_bench import graph_time  # noqa: E402
from cake_library import load  # noqa: E402
from flashlib.primitives.kmeans.triton.assign import euclid_assign_triton  # noqa: E402
from flash_kmeans.assign_euclid_triton import euclid_assign_triton as fk_assign  # noqa: E402

SHAPES = [(1, 5, 4, 7, "float16"), (2, 852, 4, 2, "float16"), (1, 29, 10, 67, "bfloat16"),
          (2, 82, 4, 105, "bfloat16"), (4, 11, 22, 37, "float32"), (1, 192, 1, 1, "float16"),
          (1, 703, 1, 2, "bfloat16"), (6, 1022, 1, 359, "bfloat16"), (3, 2, 2, 371, "float16")]
DT = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}


def durations(fn, calls=50):
    """{kernel name (48 characters): (launches per call, median GPU time in us)}."""
    names = {}
    for n, t in kernel_times(fn, calls).items():
        names.setdefault(n[:48], []).extend(t)
    return {n: (len(t) / calls, round(median(t), 3)) for n, t in names.items()}


if len(sys.argv) > 3:
    with open(sys.argv[3]) as f:
        SHAPES = [tuple(s) for s in json.load(f)]
lib = load(sys.argv[1])
for B, N, D, K, dtype in SHAPES:
    x = torch.randn(B, N, D, device="cuda", dtype=DT[dtype])
    c = torch.randn(B, K, D, device="cuda", dtype=DT[dtype])
    csq = (c.float() ** 2).sum(-1)
    out = torch.empty(B, N, device="cuda", dtype=torch.int32)
    route = lib.route(B, N, D, K, dtype)
    k = lib.kernel(route["kernel"])
    xsq = (x.float() ** 2).sum(-1)
    paths = {"cake": lambda: lib.assign(x, c, c_sq=csq, out=out),
             "flashlib": lambda: euclid_assign_triton(x, c, out, c_sq=csq),
             "fk": lambda: fk_assign(x, c, xsq, out, c_sq=csq)}
    print(f"B{B} N{N} D{D} K{K} {dtype}: {route['kernel']} block {k.block if hasattr(k, 'block') else '?'} "
          f"grid {k.grid(route['sizes']) if hasattr(k, 'grid') else '?'}", flush=True)
    for label, fn in paths.items():
        print(f"   {label:<9} graph {1e3 * graph_time(torch, fn):6.2f} us  kernels/call, median us: "
              f"{durations(fn)}", flush=True)
