"""Why a tiny kernel timed ~10 us through the Python launcher and ~2 us bare (same cubin, same
graph_time; session 9). Times one tiny shape several ways, with and without the busy spin
before each timed replay, and lists the kernels each path launches with their GPU durations
(torch profiler: durations do not depend on how the host feeds the GPU).

    python3 bench/library/diag_launch.py PACKAGE/cake_library/library
"""
import sys
sys.path.insert(0, "bench/library")
sys.path.insert(0, sys.argv[1])
import torch
from kmeans_bench import graph_time
from cake_library import load
lib = load(sys.argv[1])
B, N, D, K = 2, 25, 3, 13
x = torch.randn(B, N, D, device="cuda", dtype=torch.float16)
c = torch.randn(B, K, D, device="cuda", dtype=torch.float16)
csq = (c.float() ** 2).sum(-1)
out = torch.empty(B, N, device="cuda", dtype=torch.int32)
routed = lib.route(B, N, D, K, "float16")["kernel"]
print("routed", routed)
legal = [v["name"] for v in lib.router.legal(B, N, D, K, "float16")]
forced = [n for n in ("km_f16_simt_w4", "km_f16_direct_p128_k8_d16", "km_f16_lanes_g4_v1_k8") if n in legal]
native = lib.native
k = lib.kernel("km_f16_simt_w4")
sizes = {"B": B, "N": N, "K": K, "D": D}
ptrs = {"x": x.data_ptr(), "c": c.data_ptr(), "csq": csq.data_ptr(), "idx": out.data_ptr()}
paths = {"native routed": lambda: lib.assign(x, c, c_sq=csq, out=out),
         "bare simt k.launch": lambda: k.launch(ptrs, sizes, torch.cuda.current_stream().cuda_stream)}
for name in forced:
    paths["python " + name] = (lambda n: lambda: lib.assign(x, c, c_sq=csq, out=out, kernel=n))(name)
for spin in (0, 2_000_000, 20_000_000):
    for label, fn in paths.items():
        print("spin %8d  %-40s %.2f us" % (spin, label, 1e3 * graph_time(torch, fn, spin=spin)), flush=True)
from torch.profiler import profile, ProfilerActivity
for label, fn in paths.items():
    fn(); torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(50):
            fn()
        torch.cuda.synchronize()
    ev = [e for e in prof.events() if e.device_type.name == "CUDA"]
    names = {}
    for e in ev:
        names.setdefault(e.name, []).append(e.device_time if hasattr(e, "device_time") else e.cuda_time)
    print("profile %-40s" % label, {n: (len(t), round(sorted(t)[len(t) // 2], 2)) for n, t in names.items()}, flush=True)
