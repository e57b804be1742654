#!/bin/bash
# Call L (carry .device/callK.tgz from bench/results/2026-12-07-wgmma-w3/prepareK.sh, .device/wheels):
# the final (routed kernel through the exported package's Python API, first-call autotune, both
# anchors in the same process, assignments checked against fp64 on random and clustered data) on
# the 6 large table probes (probe-points.json): rows with TFLOP/s for the >= 550 goal.
R=bench/results/2026-12-07-large-rows
P=.device/kpkg-k
[ -d $P ] || tar xzf .device/callK.tgz -C .device
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee -a $OUT/gpu-l.txt
s=$(date +%s)
GRID=bench/results/2026-12-07-wgmma-w3/probe-points.json LIB=$P/cake_library/library TAG=large \
  timeout ${TL:-110} bash bench/library/run_h200.sh final 0 0 | tail -4
echo "final large rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu-l.txt
