#!/bin/bash
# Call 2 (session 35; carry .device/call-b16.tgz = `tar czf` of .device/kpkg-b16: build 16, the
# package exported from .device/klib (libraries/kmeans at this commit) and pruned to the grid's
# routes, and .device/wheels): build 16's final, all 420 grid shapes in one call.
rm -rf .device/kpkg-b16 && tar xzf .device/call-b16.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-b16/cake_library/library TAG=b16 timeout ${FINAL_S:-570} bash bench/library/run_h200.sh final 0 0
