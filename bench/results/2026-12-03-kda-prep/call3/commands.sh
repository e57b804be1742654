#!/bin/bash
# Call 3 (ran as .device/exp3.sh, carrying .device/kda) of bench/results/2026-12-03-kda-prep (see PREDICTION.md).
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
B="python3 bench/kda/kda_bench.py --library .device/kda --time routed --fla-on none"
$B --cases anchors --segments 1,2,4,8,16 --out $OUT/rows-anchors.json > $OUT/anchors.log 2>&1
grep -h "segments\|correct" $OUT/anchors.log
$B --cases edges --segments 1,3,8 --out $OUT/rows-edges.json > $OUT/edges.log 2>&1
grep -h "correct" $OUT/edges.log
$B --cases grid --segments 1,2,4 --out $OUT/rows-grid.json > $OUT/grid.log 2>&1
grep -h "^\[\|segments\|correct" $OUT/grid.log | cut -c1-90
