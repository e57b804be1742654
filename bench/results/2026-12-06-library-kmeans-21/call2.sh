#!/bin/bash
# Call 2 (session 41): one Lloyd iteration on a second sample of the grid (every 6th shape from
# the 1st: lloyd-sample2.json, 70 shapes, none of them in kmeans-20's sample), CAKE's lloyd_step
# (build 22) against flashlib's loop body, both checked against an fp64 update of their own
# assignments; the privatized-update diagnostics skipped. Rows are written after every shape.
R=bench/results/2026-12-06-library-kmeans-21
rm -rf .device/kpkg-b22 && tar xzf .device/call-b22.tgz -C .device
nvidia-smi -L
CAKE_BENCH_PRIVATE=0 ONLY=$R/lloyd-sample2.json LIB=.device/kpkg-b22/cake_library/library TAG=sample2 timeout 470 \
  bash bench/library/run_h200.sh lloyd 0 0
