#!/bin/bash
# Call 3 (session 40): one Lloyd iteration (assignment + centroid update) on every grid shape,
# CAKE's lloyd_step against flashlib's loop body (its assign, then its centroid step), both checked
# against an fp64 update of their own assignments; flashlib's step compiled for every shape in 12
# processes first (PREWARM), the privatized-update diagnostics skipped (CAKE_BENCH_PRIVATE=0).
R=bench/results/2026-12-06-library-kmeans-20
rm -rf .device/kpkg-b21 && tar xzf .device/call-b21.tgz -C .device
nvidia-smi -L
CAKE_BENCH_PRIVATE=0 PREWARM=12 LIB=.device/kpkg-b21/cake_library/library TAG=grid timeout 540 \
  bash bench/library/run_h200.sh lloyd 0 0
