#!/bin/bash
# Call B (session 46), after generation 0's winners (evolved.json): on the GPU machine, carrying
# .device/callB.tgz (the package of the subset build, prepareB.sh) and .device/wheels:
# (1) the evolved configurations timed at their buckets' table points beside each point's best
#     (evolved-only.json; through the package's dispatcher); (2) merged into the table and the
#     package's dispatcher rebuilt with it (retable_package.py); (3) the whole grid's final
#     (rows: GPU and host times, flashlib and flash-kmeans in the same process); (4) Lloyd on
#     lloyd-sample5b.json; (5) autotune_noise.py with its graph arm, if time is left.
R=bench/results/2026-12-07-library-evolve
K=bench/results/2026-12-06-library-kmeans-23
P=.device/kpkg-b
L=$P/cake_library/library
rm -rf $P && tar xzf .device/callB.tgz -C .device
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
if [ -s $R/evolved-only.json ]; then
  LIB=$L ONLY=$R/evolved-only.json TAG=evolved timeout 100 bash bench/library/run_h200.sh tune 0 0 | tail -3
  python3 bench/library/merge_tune.py --out $OUT/table.json libraries/kmeans/table.json $OUT/tune-evolved-0.json \
    && python3 bench/library/retable_package.py --package $P --table $OUT/table.json | tee -a $OUT/gpu.txt
fi
CAKE_BENCH_SERIAL=0 PREWARM=12 LIB=$L TAG=b46 timeout 280 bash bench/library/run_h200.sh final 0 0 | tail -4
CAKE_BENCH_PRIVATE=0 ONLY=$K/lloyd-sample5b.json LIB=$L TAG=sample5b timeout 100 \
  bash bench/library/run_h200.sh lloyd 0 0 | tail -3
timeout 60 python3 bench/library/autotune_noise.py --library $L --rows $OUT/final-b46-0.json --max-ms 0.02 \
  --repeats 4 > $OUT/noise.jsonl 2> $OUT/noise.err; echo "autotune_noise rc=$?" >> $OUT/gpu.txt
tail -1 $OUT/noise.jsonl | cut -c1-400
