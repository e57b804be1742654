#!/bin/bash
# Call 2 (session 38; carry .device/call-ra.tgz = `tar czf` of .device/kpkg-ra: libraries/kmeans
# with the wgmma `ra` variants, exported and pruned to ra-grid.json's shapes and ra-only.json's
# configurations (ra_plan.py), and .device/wheels): each (shape, configuration) pair checked
# against the reference, then timed (kmeans_bench.py tune).
R=bench/results/2026-12-06-library-kmeans-18
rm -rf .device/kpkg-ra && tar xzf .device/call-ra.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-ra/cake_library/library GRID=$R/ra-grid.json ONLY=$R/ra-only.json TAG=ra \
  timeout ${TUNE_S:-290} bash bench/library/run_h200.sh tune 0 0
