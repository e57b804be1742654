#!/bin/bash
# Call 1 (session 37; carry .device/call-sk.tgz = `tar czf` of .device/kpkg-sk: libraries/kmeans at
# this commit exported and pruned to sk-grid.json's 270 table points and sk-only.json's
# configurations, and .device/wheels): each (shape, configuration) pair checked against the
# reference, then timed (kmeans_bench.py tune).
R=bench/results/2026-12-06-library-kmeans-17
rm -rf .device/kpkg-sk && tar xzf .device/call-sk.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-sk/cake_library/library GRID=$R/sk-grid.json ONLY=$R/sk-only.json TAG=sk \
  timeout ${TUNE_S:-420} bash bench/library/run_h200.sh tune 0 0
