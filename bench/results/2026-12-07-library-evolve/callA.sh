#!/bin/bash
# Call A (session 46): one call, since the device budget left (1199 s, after refused starts) fits
# one start. Carry: .device/evo-lib/gpu (generation 0, run.sh), .device/callA.tgz (the library's
# subset that the grid's final and Lloyd launch: build.py --subset, exported; prepareA in README),
# .device/wheels. (1) generation 0 of the 27 buckets (cake-run, references checked);
# (2) Lloyd on lloyd-sample5b.json (the 40 sample-5 grid shapes kmeans-23 did not reach);
# (3) autotune_noise.py on the held-out rows under 20 us (kmeans-23's rows), with the graph arm.
R=bench/results/2026-12-07-library-evolve
K=bench/results/2026-12-06-library-kmeans-23
L=.device/kpkg-a/cake_library/library
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
timeout 240 bash .device/evo-lib/gpu/run.sh > $OUT/run.txt 2>&1; echo "evolve rc=$?" >> $OUT/gpu.txt
(cd .device/evo-lib/gpu && tar czf $OUT/results.tgz $(ls */results.json */run.log 2>/dev/null))
rm -rf .device/kpkg-a && tar xzf .device/callA.tgz -C .device
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
CAKE_BENCH_PRIVATE=0 ONLY=$K/lloyd-sample5b.json LIB=$L TAG=sample5b timeout 130 \
  bash bench/library/run_h200.sh lloyd 0 0 | tail -3
timeout 90 python3 bench/library/autotune_noise.py --library $L --rows $K/rows.json --max-ms 0.02 \
  --repeats 4 > $OUT/noise.jsonl 2> $OUT/noise.err; echo "autotune_noise rc=$?" >> $OUT/gpu.txt
tail -1 $OUT/noise.jsonl | cut -c1-400
