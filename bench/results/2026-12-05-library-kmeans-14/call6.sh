#!/bin/bash
# Call 6 (session 34: call 5 again with cs2-*.json, the copy shared by more tiles; carry .device/call-cs.tgz = `tar czf` of .device/kpkg-cs2: build 15's package
# plus the tcd `cs` experiment's 18 kernels, pruned to cs2-grid.json's 6 shapes and cs2-only.json's
# configurations): the experiment against each shape's routed and table-best configurations,
# side by side (kmeans_bench.py tune: every pair checked against the reference, then timed).
R=bench/results/2026-12-05-library-kmeans-14
rm -rf .device/kpkg-cs2 && tar xzf .device/call-cs.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-cs2/cake_library/library GRID=$R/cs2-grid.json ONLY=$R/cs2-only.json TAG=cs2 \
  timeout ${TUNE_S:-200} bash bench/library/run_h200.sh tune 0 0
