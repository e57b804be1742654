#!/bin/bash
# Call 3 (session 38; carry .device/call-b17.tgz (call 1's package), .device/call-b18.tgz =
# `tar czf` of .device/kpkg-b18: build 18 = call 2's tune merged into table.json, `ra` variants
# table-only, exported and pruned to b18-grid.json, and .device/wheels): the 29 grid shapes whose
# route build 18 changes, through build 17 and then build 18 (paired, anchors in both runs), and
# six large probe shapes (in no grid) through build 18 with the anchors.
R=bench/results/2026-12-06-library-kmeans-18
rm -rf .device/kpkg-b17 .device/kpkg-b18
tar xzf .device/call-b17.tgz -C .device && tar xzf .device/call-b18.tgz -C .device
nvidia-smi -L
export CAKE_BENCH_SERIAL=0
LIB=.device/kpkg-b17/cake_library/library GRID=$R/changed-grid.json TAG=changed-b17 \
  timeout 150 bash bench/library/run_h200.sh final 0 0
LIB=.device/kpkg-b18/cake_library/library GRID=$R/b18-grid.json TAG=b18 \
  timeout 200 bash bench/library/run_h200.sh final 0 0
