#!/bin/bash
# Call F (prepareF.sh first; carry .device/callF.tgz): every configuration of
# heldout-finalists.json timed at its held-out grid shape (kmeans_bench tune --heldout, graph
# timer, each pair checked against the fp64 reference first): the evaluation table
# heldout_regret.py scores routers with. Never merged into libraries/kmeans/table.json.
R=bench/results/2026-12-07-router-heldout
P=.device/kpkg-f
rm -rf $P && tar xzf .device/callF.tgz -C .device
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
s=$(date +%s)
LIB=$P/cake_library/library ONLY=$R/heldout-finalists.json HELDOUT=1 TAG=heldout \
  timeout ${T:-480} bash bench/library/run_h200.sh tune 0 0 | tail -3
echo "tune rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt
