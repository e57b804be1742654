#!/bin/bash
# Call G (prepareG.sh first; carry .device/callG.tgz, .device/wheels): (1) the whole grid's final
# with the library as committed (first-call autotuning of 4 candidates, the default), flashlib
# 0.4.0 and flash-kmeans 0.3.1 in the same process: valid held-out rows this time (the package
# routes every grid shape as the whole library); (2) the held-out shapes' final again with 8
# candidates (CAKE_AUTOTUNE=8), the anchors re-timed in the same process; (3) the first call's
# cost with 8 candidates (autotune_check, 20 held-out shapes, fresh process).
R=bench/results/2026-12-07-router-heldout
P=.device/kpkg-g
L=$P/cake_library/library
rm -rf $P && tar xzf .device/callG.tgz -C .device
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
s=$(date +%s)
CAKE_BENCH_SERIAL=0 PREWARM=12 LIB=$L TAG=g4 timeout ${T1:-300} bash bench/library/run_h200.sh final 0 0 | tail -4
echo "final (4 candidates) rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt; s=$(date +%s)
CAKE_AUTOTUNE=8 CAKE_BENCH_SERIAL=0 ONLY=$R/heldout-shapes.json LIB=$L TAG=ho8 timeout ${T2:-120} \
  bash bench/library/run_h200.sh final 0 0 | tail -4
echo "held-out final (8 candidates) rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt
CAKE_AUTOTUNE=8 timeout 50 python3 bench/library/autotune_check.py --library $L \
  --grid bench/results/2026-12-07-library-evolve/heldout-20.json --limit 20 --out $OUT/autotune8.json \
  > $OUT/autotune8.log 2>&1; echo "autotune_check (8) rc=$?" >> $OUT/gpu.txt
