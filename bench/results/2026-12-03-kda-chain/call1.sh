#!/bin/bash
# Session 19 call 1: ncu full sets of both passes (g64 and g64_c32) at T8192 H96, with SASS stall samples
set -x
NCU=$(which ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
for K in kda_wy_g64 kda_wy_g64_c32; do
  timeout 200 $NCU --clock-control none --set full --import-source no -k regex:kda_wy --launch-skip 2 --launch-count 2 \
    -o $OUT/$K python3 bench/kda/profile_one.py --library .device/kda --kernel $K --seq-lens 8192 --heads 96 --calls 2 > $OUT/$K.log 2>&1
  $NCU --import $OUT/$K.ncu-rep --page details > $OUT/$K.details.txt 2>&1
  $NCU --import $OUT/$K.ncu-rep --page source --print-source sass --csv > $OUT/$K.sass.csv 2>&1
  tail -3 $OUT/$K.log
done
ls -la $OUT
grep -E "Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Issue Slots Busy|Executed Ipc A" $OUT/*.details.txt
