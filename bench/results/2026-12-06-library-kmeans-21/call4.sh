#!/bin/bash
# Call 4 (session 41), build 24 (= build 21's kernels, today's dispatcher): (1) where the time of
# the 26 small grid rows below 1.0x in kmeans-20 goes (diag_tiny.py: graph time and per-kernel
# GPU durations of CAKE, flashlib and flash-kmeans); (2) the Lloyd iteration on as many shapes of
# a second grid sample (lloyd-sample2.json: every 6th shape from the 1st) as the call leaves time for.
R=bench/results/2026-12-06-library-kmeans-21
rm -rf .device/kpkg-b24 && tar xzf .device/call-b24.tgz -C .device
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
timeout ${DIAG_S:-100} python3 bench/library/diag_tiny.py .device/kpkg-b24/cake_library/library $SITE $R/below1-small.json \
  > $OUT/diag-tiny.log 2>&1
tail -3 $OUT/diag-tiny.log
CAKE_BENCH_PRIVATE=0 ONLY=$R/lloyd-sample2.json LIB=.device/kpkg-b24/cake_library/library TAG=sample2 timeout ${LLOYD_S:-90} \
  bash bench/library/run_h200.sh lloyd 0 0
