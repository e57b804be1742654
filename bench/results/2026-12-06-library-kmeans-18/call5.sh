#!/bin/bash
# Call 5 (session 38; carry .device/call-b18f.tgz = `tar czf` of .device/kpkg-b18f: build 18 as
# committed at 501bc54 (ra table-only, the rescaled table), exported and pruned to the grid's
# routes, and .device/wheels): build 18's final on the 420 grid shapes, as many as the session's
# last device time allows (kmeans_bench writes its rows after every shape).
rm -rf .device/kpkg-b18f && tar xzf .device/call-b18f.tgz -C .device
nvidia-smi -L
CAKE_BENCH_SERIAL=0 LIB=.device/kpkg-b18f/cake_library/library TAG=b18 timeout ${FINAL_S:-560} \
  bash bench/library/run_h200.sh final 0 0
