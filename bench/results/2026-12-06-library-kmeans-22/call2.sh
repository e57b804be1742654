#!/bin/bash
# Call 2 (session 42), build 26 (= build 24's kernels + tcd sub1, routed from call 1's tune):
# (1) host time in one process, session 41's runtime (A) against this session's (B), alternating
# rounds (host_ab.py); (2) bad input on real tensors; (3) the 24 grid shapes whose route changed,
# build 24's routing (A, kpkg-a1) then build 26's (B), each with both anchors; (4) the whole grid
# through build 26 (rows.json).
R=bench/results/2026-12-06-library-kmeans-22
rm -rf .device/kpkg-a1 .device/kpkg-c2 .device/rt-old && tar xzf .device/call-c2.tgz -C .device
LIB=.device/kpkg-c2/cake_library/library
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/checks.log
timeout 90 python3 bench/library/host_ab.py --library $LIB --a .device/rt-old/libraries/runtime \
  --b libraries/runtime >> $OUT/checks.log 2>&1
timeout 60 python3 bench/library/bad_input_check.py --library $LIB >> $OUT/checks.log 2>&1; echo "bad input rc $?" >> $OUT/checks.log
tail -4 $OUT/checks.log
for arm in a b; do
  lib=$([ $arm = a ] && echo .device/kpkg-a1/cake_library/library || echo $LIB)
  CAKE_BENCH_SERIAL=0 timeout 100 python3 bench/library/kmeans_bench.py --library $lib --grid $R/changed-grid.json \
    --phase final --anchors $SITE --prewarm 12 --out $OUT/changed-$arm.json > $OUT/changed-$arm.log 2>&1
  tail -2 $OUT/changed-$arm.log
done
CAKE_BENCH_SERIAL=0 PREWARM=12 LIB=$LIB TAG=b26 timeout 250 bash bench/library/run_h200.sh final 0 0 | tail -8
