#!/bin/bash
# Call 2 (session 39; carry .device/call-b19.tgz = `tar czf` of .device/kpkg-b19: build 19 (the
# split-K variants, the table merged with call 1's tune), exported and pruned to the grid's
# routes, and .device/wheels): build 19's final on the 420 grid shapes, anchors in the same call.
rm -rf .device/kpkg-b19 && tar xzf .device/call-b19.tgz -C .device
nvidia-smi -L
CAKE_BENCH_SERIAL=0 LIB=.device/kpkg-b19/cake_library/library TAG=b19 timeout ${FINAL_S:-575} \
  bash bench/library/run_h200.sh final 0 0
