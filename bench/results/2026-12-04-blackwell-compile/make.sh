#!/bin/bash
# Regenerates this folder's evidence from the repository root (cuobjdump/nvdisasm: the
# nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm wheels, on PATH).
set -eu
D=bench/results/2026-12-04-blackwell-compile
for k in blackwell_gemm blackwell_gemm_fp8 blackwell_gemm_pair blackwell_gemm_persistent kmeans_blackwell; do
  build/bin/cake-opt examples/$k.mlir --cake-verify -o /dev/null
  build/bin/cake-translate examples/$k.mlir --emit=ptx -o /tmp/$k.ptx
  build/bin/cake-translate examples/$k.mlir --emit=cubin -o /tmp/$k.cubin --ptxas-log $D/$k.ptxas.log
  grep -E "tcgen05|clusterlaunchcontrol|cp.async.bulk.tensor|barrier.cluster" /tmp/$k.ptx \
    | sed 's/^\s*//' | sort | uniq -c | sort -rn > $D/$k.ptx-excerpt.txt
  cuobjdump -sass /tmp/$k.cubin | grep -oE "(UTC[A-Z0-9_.]*|UGETNEXTWORKID[A-Z.]*|UCGABAR_[A-Z]*|UTMALDG[A-Z0-9.]*)" \
    | sort | uniq -c | sort -rn > $D/$k.sass-counts.txt
done
