#!/bin/bash
# Call 1 (session 42): (1) the Python API's host time, session 41's runtime (A, .device/rt-old =
# 4303fff) against this session's (B), three alternating processes each; (2) bad input on real
# tensors; (3) a final on the 7 shapes through the new runtime (correctness, autotune path);
# (4) Nsight Compute on the large rows below or near 1.0x (profile-shapes.json).
R=bench/results/2026-12-06-library-kmeans-22
rm -rf .device/kpkg-c1 .device/rt-old && tar xzf .device/call-c1.tgz -C .device
LIB=.device/kpkg-c1/cake_library/library
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
for i in 1 2 3; do
  timeout 60 python3 bench/library/host_breakdown.py --library $LIB --runtime .device/rt-old/libraries/runtime >> $OUT/host.log 2>&1
  timeout 60 python3 bench/library/host_breakdown.py --library $LIB $([ $i = 3 ] && echo --steps) >> $OUT/host.log 2>&1
done
timeout 60 python3 bench/library/bad_input_check.py --library $LIB > $OUT/bad-input.log 2>&1; echo "bad input rc $?" >> $OUT/bad-input.log
CAKE_BENCH_SERIAL=0 timeout 150 python3 bench/library/kmeans_bench.py --library $LIB --grid $R/call1-grid.json \
  --phase final --anchors $SITE --out $OUT/final.json > $OUT/final.log 2>&1
tail -3 $OUT/final.log
timeout 300 ncu --profile-from-start off --clock-control none --section SpeedOfLight --section Occupancy \
  --section WarpStateStats --section MemoryWorkloadAnalysis --section InstructionStats --section LaunchStats \
  python3 bench/library/profile_shapes.py --library $LIB --anchors $SITE --shapes $R/profile-shapes.json \
  > $OUT/ncu.txt 2>&1
tail -2 $OUT/ncu.txt
# (5) Lloyd on the rest of session 41's second grid sample (lloyd-sample3.json: its 57 shapes
# not measured yet), as many as 200 s allow.
CAKE_BENCH_PRIVATE=0 ONLY=$R/lloyd-sample3.json LIB=$LIB TAG=sample3 timeout 200 \
  bash bench/library/run_h200.sh lloyd 0 0
