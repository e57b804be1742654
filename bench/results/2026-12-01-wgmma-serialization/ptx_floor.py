#!/usr/bin/env python3
"""How much of ptxas's time on hopper_gemm is its epilogue: PTX variants that are NOT correct
kernels, only probes of ptxas's compile time (2026-12-01).

  build/bin/cake-translate examples/hopper_gemm.mlir --emit=ptx -o hg.ptx
  python3 ptx_floor.py hg.ptx            # writes hg_nobr.ptx and hg_nost.ptx
  for f in hg hg_nobr hg_nost; do ptxas -arch=sm_90a -O3 -v $f.ptx -o /dev/null 2>&1 | grep 'Compile time'; done

hg_nobr: every branch after the last wgmma.wait_group removed (the masked epilogue as straight-line
code: each pair's vector and scalar stores all execute). hg_nost: its stores removed too.
The third probe, the epilogue's fast path alone (every store unmasked), is made from the LLVM IR:
the epilogue's conditional branches of `cake-translate --emit=llvm` replaced by their true edge,
then `opt -O3` and `llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80`.
"""
import sys

src = open(sys.argv[1]).read().split("\n")
start = max(i for i, l in enumerate(src) if "wgmma.wait_group.sync.aligned \t0" in l)
stem = sys.argv[1][:-4]
for suffix, drop in (("_nobr", ("bra",)), ("_nost", ("bra", "st.global"))):
    kept = [l for i, l in enumerate(src) if i <= start or not any(d in l for d in drop)]
    open(stem + suffix + ".ptx", "w").write("\n".join(kept))
