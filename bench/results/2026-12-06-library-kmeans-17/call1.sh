#!/bin/bash
# Call 1 (session 37; carry .device/call-split.tgz = `tar czf` of .device/kpkg-split: libraries/kmeans at
# this commit exported and pruned to split-grid.json's the table points and split-only.json's
# configurations, and .device/wheels): each (shape, configuration) pair checked against the
# reference, then timed (kmeans_bench.py tune).
R=bench/results/2026-12-06-library-kmeans-17
rm -rf .device/kpkg-split && tar xzf .device/call-split.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-split/cake_library/library GRID=$R/split-grid.json ONLY=$R/split-only.json TAG=split \
  timeout ${TUNE_S:-300} bash bench/library/run_h200.sh tune 0 0
