#!/bin/bash
# Call 1 (session 39; carry .device/call-sk2.tgz = `tar czf` of .device/kpkg-sk2: libraries/kmeans
# with the split-K variants, exported and pruned to split-grid.json's shapes and split-only.json's
# configurations (split_plan.py), and .device/wheels): each (shape, configuration) pair checked
# against the fp64 reference on random and on clustered data, then timed (kmeans_bench.py tune).
R=bench/results/2026-12-06-library-kmeans-19
rm -rf .device/kpkg-sk2 && tar xzf .device/call-sk2.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-sk2/cake_library/library GRID=$R/split-grid.json ONLY=$R/split-only.json TAG=split \
  CLUSTERED=1 timeout ${TUNE_S:-560} bash bench/library/run_h200.sh tune 0 0
