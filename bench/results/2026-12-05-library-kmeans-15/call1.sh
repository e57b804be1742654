#!/bin/bash
# Call 1 (session 35; carry .device/call-cs.tgz = `tar czf` of .device/kpkg-cs: build 15's table
# with the persistent tcd `cs` kernels in the plan, exported and pruned to cs-grid.json's 166
# shapes and cs-only.json's configurations, and .device/wheels): each pair checked against the
# reference, then timed (kmeans_bench.py tune).
R=bench/results/2026-12-05-library-kmeans-15
rm -rf .device/kpkg-cs && tar xzf .device/call-cs.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-cs/cake_library/library GRID=$R/cs-grid.json ONLY=$R/cs-only.json TAG=cs \
  timeout ${TUNE_S:-500} bash bench/library/run_h200.sh tune 0 0
