#!/bin/bash
# Call E (prepareE.sh first; carry .device/evo-lib/gpu, .device/callE.tgz, .device/wheels):
# (1) generation 0 of the 27 buckets again, with the starts the table timed (graph timer); (2) every evolved configuration timed by
# kmeans_bench's tune at its bucket's table points beside the points' two best, merged into the
# table ($OUT/table.json; commit it to libraries/kmeans/table.json where it routes better).
R=bench/results/2026-12-07-library-evolve
P=.device/kpkg-e
L=$P/cake_library/library
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
s=$(date +%s); timeout ${T:-300} bash .device/evo-lib/gpu/run.sh > $OUT/run.txt 2>&1
echo "evolve rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt
(cd .device/evo-lib/gpu && tar czf $OUT/results.tgz $(ls */results.json */run.log 2>/dev/null))
rm -rf $P && tar xzf .device/callE.tgz -C .device
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
LIB=$L ONLY=$R/evolved-e.json TAG=evolved timeout 90 bash bench/library/run_h200.sh tune 0 0 | tail -3
cp $OUT/tune-evolved-0.json $OUT/tune-evolved.json 2>/dev/null
python3 bench/library/merge_tune.py --out $OUT/table.json libraries/kmeans/table.json $OUT/tune-evolved-0.json
