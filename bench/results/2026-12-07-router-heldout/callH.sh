#!/bin/bash
# Call H (carry .device/callG.tgz, .device/wheels): one Lloyd iteration (lloyd_step: assignment,
# centroid sums and counts, division) against flashlib 0.4.0's loop body on lloyd-sample6.json:
# every third grid shape without a Lloyd measurement yet (97 of the 291; 129 measured in
# sessions 40-46). Whatever the limit leaves is measured (the rows are written per shape).
R=bench/results/2026-12-07-router-heldout
P=.device/kpkg-g
L=$P/cake_library/library
rm -rf $P && tar xzf .device/callG.tgz -C .device
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
s=$(date +%s)
CAKE_BENCH_PRIVATE=0 ONLY=$R/lloyd-sample6.json LIB=$L TAG=sample6 timeout ${T:-330} \
  bash bench/library/run_h200.sh lloyd 0 0 | tail -3
echo "lloyd rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt
