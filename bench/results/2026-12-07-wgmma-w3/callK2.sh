#!/bin/bash
# Call K2 (carry .device/callK.tgz, .device/wheels): call K's tune at the 6 table points that are
# probes, not grid shapes (probe-points.json: call K's tune walked grid.json and skipped them).
R=bench/results/2026-12-07-wgmma-w3
P=.device/kpkg-k
L=$P/cake_library/library
rm -rf $P && tar xzf .device/callK.tgz -C .device
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu-k2.txt
s=$(date +%s)
GRID=$R/probe-points.json CLUSTERED=1 LIB=$L ONLY=$R/w3-tune.json TAG=w3probe timeout ${TK:-120} bash bench/library/run_h200.sh tune 0 0 | tail -3
echo "tune rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu-k2.txt
