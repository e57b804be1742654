#!/bin/bash
# Call 2 (session 36; carry .device/call-cs2.tgz = `tar czf` of .device/kpkg-cs2 and .device/kpkg-pf:
# build 16's table with the resident-centroid tcd kernels of kn 1-10, 12, 16 and r 1-2 and tcd's
# pf forms in the plan, exported, pruned to cs-grid.json's 134 shapes and cs-only.json's
# configurations, and to pf-grid.json / pf-only.json; and .device/wheels): each pair checked
# against the reference, then timed (kmeans_bench.py tune), in two runs.
R=bench/results/2026-12-05-library-kmeans-16
rm -rf .device/kpkg-cs2 .device/kpkg-pf && tar xzf .device/call-cs2.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-cs2/cake_library/library GRID=$R/cs-grid.json ONLY=$R/cs-only.json TAG=cs2 \
  timeout ${TUNE_S:-330} bash bench/library/run_h200.sh tune 0 0
LIB=.device/kpkg-pf/cake_library/library GRID=$R/pf-grid.json ONLY=$R/pf-only.json TAG=pf \
  timeout ${TUNE_PF_S:-200} bash bench/library/run_h200.sh tune 0 0
