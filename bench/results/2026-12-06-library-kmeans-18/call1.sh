#!/bin/bash
# Call 1 (session 38; carry .device/call-b17.tgz = `tar czf` of .device/kpkg-b17: build 17 as
# committed at 9687a88 (libraries/kmeans/build.py --keep-built, `cake library export`,
# bench/library/prune_package.py to the grid's routes) and .device/wheels): build 17's final on
# all 420 grid shapes in one call. CAKE_BENCH_SERIAL=0 drops the diagnostic serial-launch timing
# (an H100 needs ~1.45 s a shape with it: 369 shapes fit the last 600 s call, not 420).
rm -rf .device/kpkg-b17 && tar xzf .device/call-b17.tgz -C .device
nvidia-smi -L
CAKE_BENCH_SERIAL=0 LIB=.device/kpkg-b17/cake_library/library TAG=b17 timeout ${FINAL_S:-585} \
  bash bench/library/run_h200.sh final 0 0
