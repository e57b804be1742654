#!/bin/bash
# The next session's one GPU call (prepareD.sh first; carry .device/evo-lib/gpu, .device/callD.tgz,
# .device/wheels): (1) generation 0 with the graph timer (27 buckets); (2) evolved.json's winners
# timed by kmeans_bench's tune at their buckets' table points, merged into the table, the
# package's dispatcher rebuilt with it (retable_package.py); (3) the whole grid's final (rows:
# GPU and host times, flashlib and flash-kmeans in the same process; first-call autotuning now
# times candidates by graph replay).
R=bench/results/2026-12-07-library-evolve
P=.device/kpkg-d
L=$P/cake_library/library
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
s=$(date +%s); timeout 200 bash .device/evo-lib/gpu/run.sh > $OUT/run.txt 2>&1
echo "evolve rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt
(cd .device/evo-lib/gpu && tar czf $OUT/results.tgz $(ls */results.json */run.log 2>/dev/null))
rm -rf $P && tar xzf .device/callD.tgz -C .device
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
LIB=$L ONLY=$R/evolved-only.json TAG=evolved timeout 60 bash bench/library/run_h200.sh tune 0 0 | tail -3
python3 bench/library/merge_tune.py --out $OUT/table.json libraries/kmeans/table.json $OUT/tune-evolved-0.json \
  && python3 bench/library/retable_package.py --package $P --table $OUT/table.json | tee -a $OUT/gpu.txt
# (2b) the first call's cost with the graph-timed autotuner (20 held-out shapes, fresh process)
timeout 60 python3 bench/library/autotune_check.py --library $L --grid $R/heldout-20.json --limit 20 \
  --out $OUT/autotune.json > $OUT/autotune.log 2>&1; echo "autotune_check rc=$?" >> $OUT/gpu.txt
CAKE_BENCH_SERIAL=0 PREWARM=12 LIB=$L TAG=d46 timeout 270 bash bench/library/run_h200.sh final 0 0 | tail -4
