"""Why a tiny kernel times ~10 us through the Python launcher and ~2 us through the C++
dispatcher (same cubin, same graph_time). Times one shape several ways."""
import sys, time
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
name = lib.route(B, N, D, K, "float16")["kernel"]
print("routed", name)
native = lib.native
print("native default  %.2f us" % (1e3 * graph_time(torch, lambda: lib.assign(x, c, c_sq=csq, out=out))))
for forced in ("km_f16_simt_w4", "km_f16_direct_p128_k8_d16"):
    print("python %-28s %.2f us" % (forced, 1e3 * graph_time(torch, lambda: lib.assign(x, c, c_sq=csq, out=out, kernel=forced))))
lib.native = None
print("python routed   %.2f us" % (1e3 * graph_time(torch, lambda: lib.assign(x, c, c_sq=csq, out=out))))
k = lib.kernel("km_f16_simt_w4")
sizes = {"B": B, "N": N, "K": K, "D": D}
ptrs = {"x": x.data_ptr(), "c": c.data_ptr(), "csq": csq.data_ptr(), "idx": out.data_ptr()}
s = torch.cuda.current_stream().cuda_stream
print("bare k.launch   %.2f us" % (1e3 * graph_time(torch, lambda: k.launch(ptrs, sizes, torch.cuda.current_stream().cuda_stream))))
lib.native = native
print("native again    %.2f us" % (1e3 * graph_time(torch, lambda: lib.assign(x, c, c_sq=csq, out=out))))
