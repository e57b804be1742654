#!/bin/bash
# Call 1 (session 42), build 25 (= build 24 + tcd `sub1` and wide `cs` variants, unrouted): (1) the Python API's
# host time, session 41's runtime (A, .device/rt-old = 4303fff) against this session's (B), three
# alternating processes each; (2) bad input on real tensors; (3) a final on the 7 shapes through
# the new runtime (correctness, autotune path); (4) tune phase on tune-ab.json (every listed
# configuration timed and checked): tcd `sub1` against the routed hx kernel on the grid rows it
# can serve (sub1-ab.json) and the wide resident-centroid classes (cs 512-1536) against the
# routed kernel on 8 wide-D small-K rows (cswide-ab.json); (5) Nsight Compute on the large rows below or near 1.0x (profile-shapes.json);
# (6) Lloyd on lloyd-sample3.json as long as 120 s allow.
R=bench/results/2026-12-06-library-kmeans-22
rm -rf .device/kpkg-c1 .device/rt-old && tar xzf .device/call-c1.tgz -C .device
LIB=.device/kpkg-c1/cake_library/library
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/checks.log
for i in 1 2 3; do
  timeout 60 python3 bench/library/host_breakdown.py --library $LIB --runtime .device/rt-old/libraries/runtime >> $OUT/checks.log 2>&1
  timeout 60 python3 bench/library/host_breakdown.py --library $LIB $([ $i = 3 ] && echo --steps) >> $OUT/checks.log 2>&1
done
timeout 60 python3 bench/library/bad_input_check.py --library $LIB >> $OUT/checks.log 2>&1; echo "bad input rc $?" >> $OUT/checks.log
tail -3 $OUT/checks.log
CAKE_BENCH_SERIAL=0 timeout 150 python3 bench/library/kmeans_bench.py --library $LIB --grid $R/call1-grid.json \
  --phase final --anchors $SITE --out $OUT/final.json > $OUT/final.log 2>&1
tail -3 $OUT/final.log
ONLY=$R/tune-ab.json LIB=$LIB TAG=ab timeout 150 bash bench/library/run_h200.sh tune 0 0 | tail -3
timeout 120 ncu --profile-from-start off --clock-control none --section SpeedOfLight --section Occupancy \
  --section WarpStateStats --section MemoryWorkloadAnalysis --section InstructionStats --section LaunchStats \
  python3 bench/library/profile_shapes.py --library $LIB --anchors $SITE --shapes $R/profile-shapes.json \
  > $OUT/ncu.txt 2>&1
tail -2 $OUT/ncu.txt
CAKE_BENCH_PRIVATE=0 ONLY=$R/lloyd-sample3.json LIB=$LIB TAG=sample3 timeout 120 \
  bash bench/library/run_h200.sh lloyd 0 0 | tail -3
