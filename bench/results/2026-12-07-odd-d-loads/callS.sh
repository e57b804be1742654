#!/bin/bash
# Call S (prepareS.sh first; carry .device/callS.tgz, .device/wheels): the staged-x tcd variants
# timed by kmeans_bench's tune at the 64 odd-D fp16/bf16 table points of stx-tune.json beside each
# point's three fastest, every pair also checked on clustered data; merged into a copy of the
# table ($OUT/table-stx.json) to count the points where a staged kernel is fastest.
R=bench/results/2026-12-07-odd-d-loads
P=.device/kpkg-s
rm -rf $P && tar xzf .device/callS.tgz -C .device
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee -a $OUT/gpu-s.txt
s=$(date +%s)
CLUSTERED=1 LIB=$P/cake_library/library ONLY=$R/stx-tune.json TAG=stx timeout ${TS:-200} \
  bash bench/library/run_h200.sh tune 0 0 | tail -3
echo "tune stx rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu-s.txt
python3 bench/library/merge_tune.py --out $OUT/table-stx.json libraries/kmeans/table.json $OUT/tune-stx-0.json | tail -3
