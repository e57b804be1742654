#!/bin/bash
# Call 1 (session 34; device tool, carrying .device/call-b14.tgz = `tar czf` of .device/kpkg-b14,
# 3 MB, and .device/wheels): build 14's final, all 420 grid shapes in one call (build 13's was
# split over an H200 and an H100), bounded by FINAL_S.
R=bench/results/2026-12-05-library-kmeans-14
[ -d .device/kpkg-b14 ] || tar xzf .device/call-b14.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-b14/cake_library/library TAG=b14 timeout ${FINAL_S:-560} bash bench/library/run_h200.sh final 0 0
