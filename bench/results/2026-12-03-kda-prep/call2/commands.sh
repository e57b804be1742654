#!/bin/bash
# Call 2 (ran as .device/exp2.sh, carrying .device/kda, .device/kda-b10, .device/kda-b12 built by libraries/kda/build.py with KDA_PREP_MIN_BLOCKS unset / 10 / 12, and .device/evo) of bench/results/2026-12-03-kda-prep (see PREDICTION.md).
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
B="python3 bench/kda/kda_bench.py --time routed --fla-on none"
$B --library .device/kda --cases anchors --segments 1,2,4,8 --out $OUT/rows-A.json > $OUT/A.log 2>&1
grep -h "^\[\|segments\|correct" $OUT/A.log | cut -c1-400
$B --library .device/kda --cases edges --segments 1,3,8 --out $OUT/rows-A-edges.json > $OUT/A-edges.log 2>&1
grep -h "segments\|correct" $OUT/A-edges.log | cut -c1-200
for L in kda-b10 kda-b12; do
  $B --library .device/$L --cases anchors --segments 1,8 --out $OUT/rows-$L.json > $OUT/$L.log 2>&1
  echo "== $L"; grep -h "segments\|correct" $OUT/$L.log
done
for L in kda kda-b10 kda-b12; do
  ncu --metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active --csv python3 bench/kda/profile_one.py --library .device/$L --kernel kda_wy_g64 --seq-lens 8192 --heads 96 --calls 1 > $OUT/ncu-$L.csv 2>&1
  echo "== ncu $L"; grep kda_wy $OUT/ncu-$L.csv | awk -F'","' '{print $5, $13, $15}'
done
timeout 200 python3 .device/evo/kda-g1/run_batch.py --out $OUT/kda-g1.json > $OUT/kda-g1.log 2>&1; echo evo rc $?; tail -2 $OUT/kda-g1.log
