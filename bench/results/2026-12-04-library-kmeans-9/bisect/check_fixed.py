import sys, glob, os, torch
sys.path.insert(0, ".device/ab/kA")
from cake_library import load, driver as drv
L = load(".device/ab/kB/cake_library/library"); L.native = None
for f in sorted(glob.glob(".device/bis2/*.cubin")):
    n = os.path.basename(f)[:-6]
    dt = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}[n.split("_")[1]]
    D = 445 if "c7" in n else (253 if "f16" in n else 125)
    for N in (384, 5000):
        g = torch.Generator(device="cuda"); g.manual_seed(3)
        x = torch.randn(1, N, D, device="cuda", generator=g).to(dt); c = x.clone()
        csq = (c.float() ** 2).sum(-1)
        if L._driver is None:
            L._driver = drv.Driver()
        L._kernels[n] = drv.Kernel(L._driver, open(f, "rb").read(), L._variants[n]["manifest"])
        o = torch.full((1, N), -1, device="cuda", dtype=torch.int32)
        L.assign(x, c, c_sq=csq, out=o, kernel=n); torch.cuda.synchronize()
        print(n, N, "wrong", (o[0] != torch.arange(N, device="cuda", dtype=torch.int32)).sum().item(), flush=True)
