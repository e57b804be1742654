#!/bin/bash
# Call 5 (session 39; carry .device/call-b20.tgz = `tar czf` of .device/kpkg-b20: build 20 (build 19
# plus the narrower split-K tiles, the table merged with call 4's tune), exported and pruned to
# the grid's routes, and .device/wheels): build 20's final on the 420 grid shapes in one call,
# the anchors compiled for every shape in 12 processes first (PREWARM), then measured in the
# same call as CAKE.
rm -rf .device/kpkg-b20 && tar xzf .device/call-b20.tgz -C .device
nvidia-smi -L
CAKE_BENCH_SERIAL=0 PREWARM=12 LIB=.device/kpkg-b20/cake_library/library TAG=b20 timeout ${FINAL_S:-585} \
  bash bench/library/run_h200.sh final 0 0
