#!/bin/bash
# Call 4 (session 34; carry .device/call-b15.tgz = `tar czf` of .device/kpkg-b15, and
# .device/wheels): build 15's final, all 420 grid shapes in one call, bounded by FINAL_S.
R=bench/results/2026-12-05-library-kmeans-14
rm -rf .device/kpkg-b15 && tar xzf .device/call-b15.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-b15/cake_library/library TAG=b15 timeout ${FINAL_S:-560} bash bench/library/run_h200.sh final 0 0
