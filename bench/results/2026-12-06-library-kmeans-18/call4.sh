#!/bin/bash
# Call 4 (session 38; carry .device/call-ov.tgz = `tar czf` of .device/kpkg-ov: libraries/kmeans
# with the wgmma `ov` variants, exported and pruned to ov-grid.json's shapes and ov-only.json's
# configurations (ov_plan.py), and .device/wheels): each (shape, configuration) pair checked
# against the reference, then timed (kmeans_bench.py tune).
R=bench/results/2026-12-06-library-kmeans-18
rm -rf .device/kpkg-ov && tar xzf .device/call-ov.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-ov/cake_library/library GRID=$R/ov-grid.json ONLY=$R/ov-only.json TAG=ov \
  timeout ${TUNE_S:-250} bash bench/library/run_h200.sh tune 0 0
