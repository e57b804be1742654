"""One staged call on one shape, for a profiler (ncu) to look at its staging (`pad`) kernel:

    ncu --kernel-name regex:pad --launch-count 1 --section SpeedOfLight ... \
        python3 bench/library/profile_pad.py PACKAGE/cake_library/library B N D K DTYPE KERNEL
"""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[1]))))
import torch
from cake_library import load

lib = load(sys.argv[1])
B, N, D, K = (int(a) for a in sys.argv[2:6])
dt = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}[sys.argv[6]]
x = torch.randn(B, N, D, device="cuda", dtype=dt)
c = torch.randn(B, K, D, device="cuda", dtype=dt)
csq = (c.float() ** 2).sum(-1)
out = torch.empty(B, N, device="cuda", dtype=torch.int32)
lib.assign(x, c, c_sq=csq, out=out, kernel=sys.argv[7])
torch.cuda.synchronize()
print("done", sys.argv[7])
