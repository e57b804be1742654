#!/bin/bash
# Call 2 (session 34; carry .device/call-diag.tgz = `tar czf` of .device/kpkg-diag: build 14's
# package with only the pad kernels and the staged and routed kernels of the shapes below):
# the staging kernel's share of staged calls, and torch's copies of x as the bandwidth reference
# (bench/library/diag_pad.py, per kernel GPU time by the torch profiler, median of 30 calls).
rm -rf .device/kpkg-diag && tar xzf .device/call-diag.tgz -C .device
nvidia-smi -L
timeout ${DIAG_S:-300} python3 bench/library/diag_pad.py .device/kpkg-diag/cake_library/library \
  2,120214,145,71,bfloat16 2,120214,152,71,bfloat16 4,36434,462,94,float16 5,32656,159,100,float32 \
  5,19079,210,80,float32 7,156830,216,2,float16 5,3717,971,42,bfloat16 1,197487,401,5297,bfloat16 \
  2>&1 | tee $OUT/diag-pad.log
