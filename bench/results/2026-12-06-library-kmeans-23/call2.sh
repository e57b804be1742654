#!/bin/bash
# Call 2 (session 44): build 27 exported with assign_tensors (call-d2.tgz, as call 1):
# (1) the whole grid through the package (rows of record: GPU times of build 26's kernels, and
# host time per shape through the Python API's fast path); (2) Lloyd on the 60 grid shapes of
# lloyd-sample5.json (call 1's attempt stopped at the file's missing "configs" fields).
# ~500 s at most (the timeouts). Carry: .device/call-d2.tgz, .device/wheels.
R=bench/results/2026-12-06-library-kmeans-23
L=.device/kpkg-d1/cake_library/library
rm -rf .device/kpkg-d1 .device/rt-s42 && tar xzf .device/call-d2.tgz -C .device
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
CAKE_BENCH_SERIAL=0 PREWARM=12 LIB=$L TAG=b27 timeout 280 bash bench/library/run_h200.sh final 0 0 | tail -6
CAKE_BENCH_PRIVATE=0 ONLY=$R/lloyd-sample5.json LIB=$L TAG=sample5 timeout 200 \
  bash bench/library/run_h200.sh lloyd 0 0 | tail -3
