import sys, torch
sys.path.insert(0, ".device/ab/kA")
from cake_library import load
B_ = load(".device/ab/kB/cake_library/library"); A_ = load(".device/ab/kA/cake_library/library")
for n, dt, D in (("km_f32_c4_k128_w2_x1_s2_p", torch.float32, 125), ("km_bf16_c7_k64_w2_x1_s2_p", torch.bfloat16, 445)):
    N = 384
    g = torch.Generator(device="cuda"); g.manual_seed(3)
    x = torch.randn(1, N, D, device="cuda", generator=g).to(dt); c = x.clone()
    csq = (c.float() ** 2).sum(-1)
    for name, L in (("A", A_), ("B", B_)):
        o = torch.full((1, N), -1, device="cuda", dtype=torch.int32)
        L.assign(x, c, c_sq=csq, out=o, kernel=n); torch.cuda.synchronize()
        print(n, name, o[0].tolist(), flush=True)
