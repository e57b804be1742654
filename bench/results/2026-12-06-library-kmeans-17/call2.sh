#!/bin/bash
# Call 2 (session 37; carry .device/call-b17.tgz = `tar czf` of .device/kpkg-b17: build 17, the
# package exported from .device/klib (libraries/kmeans at this commit: the table with call 1's
# split-K points merged) and pruned to the grid's routes, and .device/wheels): build 17's final,
# all 420 grid shapes in one call.
rm -rf .device/kpkg-b17 && tar xzf .device/call-b17.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-b17/cake_library/library TAG=b17 timeout ${FINAL_S:-570} bash bench/library/run_h200.sh final 0 0
