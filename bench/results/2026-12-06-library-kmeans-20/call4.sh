#!/bin/bash
# Call 4 (session 40): one Lloyd iteration on a sample of the grid (every 6th shape from the 4th:
# lloyd-sample.json, 70 shapes, 11 of them held out), CAKE's lloyd_step against flashlib's loop
# body, both checked against an fp64 update of their own assignments; no prewarm (call 3's did not
# finish), the privatized-update diagnostics skipped. Rows are written after every shape.
R=bench/results/2026-12-06-library-kmeans-20
rm -rf .device/kpkg-b21 && tar xzf .device/call-b21.tgz -C .device
nvidia-smi -L
CAKE_BENCH_PRIVATE=0 ONLY=$R/lloyd-sample.json LIB=.device/kpkg-b21/cake_library/library TAG=sample timeout 470 \
  bash bench/library/run_h200.sh lloyd 0 0
