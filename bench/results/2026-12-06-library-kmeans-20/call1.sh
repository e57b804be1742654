#!/bin/bash
# Call 1 (session 40; carry .device/call-b21.tgz = `tar czf` of .device/kpkg-b21: build 20's
# export pruned to the grid + probe shapes with the autotuning candidates (prune_package.py
# --grid both --candidates 4), and .device/wheels). The repository's runtime (first-call
# autotuning, cake_library/autotune.py) over build 20's kernels and dispatcher.
R=bench/results/2026-12-06-library-kmeans-20
rm -rf .device/kpkg-b21 && tar xzf .device/call-b21.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-b21/cake_library/library
# 1. first-call cost and choices on 20 fresh shapes (no anchors)
timeout 120 python3 bench/library/autotune_check.py --library $LIB --grid $R/probe-grid.json --limit 20 \
  --out $OUT/autotune-check.json > $OUT/autotune-check.log 2>&1; tail -3 $OUT/autotune-check.log
# 2. the whole grid, anchors in the same process (autotuned rows also timed with the routed kernel)
CAKE_BENCH_SERIAL=0 PREWARM=12 LIB=$LIB TAG=b21 timeout 330 bash bench/library/run_h200.sh final 0 0
# 3. the 60 fresh shapes, the same way
CAKE_BENCH_SERIAL=0 PREWARM=12 LIB=$LIB GRID=$R/probe-grid.json TAG=probe timeout 120 bash bench/library/run_h200.sh final 0 0
