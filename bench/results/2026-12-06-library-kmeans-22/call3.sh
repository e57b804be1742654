#!/bin/bash
# Call 3 (session 42), build 26 (call 2's package, the whole grid's kernels): (1) host time in
# one process again (host_ab.py), after the fix of assign's return (call 2's runtime made a view
# of every result: the condition compared idx.dim() with x.dim()); (2) Lloyd on the shapes of
# lloyd-sample3.json that call 1 did not reach (lloyd-sample4.json), as long as 150 s allow.
R=bench/results/2026-12-06-library-kmeans-22
rm -rf .device/kpkg-a1 .device/kpkg-c2 .device/rt-old && tar xzf .device/call-c2.tgz -C .device
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
timeout 60 python3 bench/library/host_ab.py --library .device/kpkg-c2/cake_library/library \
  --a .device/rt-old/libraries/runtime --b libraries/runtime --rounds 5 >> $OUT/gpu.txt 2>&1
tail -2 $OUT/gpu.txt
CAKE_BENCH_PRIVATE=0 ONLY=$R/lloyd-sample4.json LIB=.device/kpkg-c2/cake_library/library TAG=sample4 timeout 150 \
  bash bench/library/run_h200.sh lloyd 0 0 | tail -3
