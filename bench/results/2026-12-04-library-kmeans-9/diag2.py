import sys, os, re, torch
sys.path.insert(0, ".device/ab/kA")
from cake_library import load
libs = {t: load(f".device/ab/k{t}/cake_library/library") for t in "ABCDE"}
names = sorted(f[:-6] for f in os.listdir(".device/ab/kB/cake_library/library/kernels") if re.match(r"km_(bf16|f16|f32)_c\d+_k\d+_w\d_x\d_s\d_[pt]\.cubin", f))
bad = []
for n in names:
    dt = {"bf16": "bfloat16", "f16": "float16", "f32": "float32"}[n.split("_")[1]]
    ch = int(re.search(r"_c(\d+)_", n).group(1)); per = 64 if dt != "float32" else 32
    D = per * ch - 3; B, N, K = 1, 20000, 1000
    g = torch.Generator(device="cuda"); g.manual_seed(1)
    tdt = getattr(torch, dt)
    x = torch.randn(B, N, D, device="cuda", generator=g).to(tdt); c = torch.randn(B, K, D, device="cuda", generator=g).to(tdt)
    csq = (c.float() ** 2).sum(-1)
    outs = {}
    if not re.search(r"(bf16_c7_k64|f16_c4_k128|f32_c4_k128)_w2_x1_s2_p", n): continue
    for t in "ABCDE":
        o = torch.full((B, N), -1, device="cuda", dtype=torch.int32)
        try:
            libs[t].assign(x, c, c_sq=csq, out=o, kernel=n); torch.cuda.synchronize(); outs[t] = o
        except Exception as e:
            outs[t] = None; print(n, t, "error", str(e)[:120])
    res = {t: (None if outs[t] is None or outs["A"] is None else (outs[t] != outs["A"]).sum().item()) for t in outs if t != "A"}
    print(n, D, res, flush=True)
    if res.get("B"): bad.append(n)
print("BAD", len(bad), bad)
