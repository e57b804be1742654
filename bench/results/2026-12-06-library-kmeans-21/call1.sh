#!/bin/bash
# Call 1 (session 41): (1) the last-block kernel of test/IR/atomic-fetch-add.mlir on the GPU
# (cake.atomic_fetch_add acq_rel, cake.fence); (2) A/B on the 102 grid shapes kmeans-20 served
# with split-K: build 21 (finish kernel, session 40's runtime, .device/old) then build 22
# (finished in the kernel); (3) the whole grid's final with build 22 (rows.json);
# (4) the first call of fresh shapes through the dispatcher's candidates (autotune_check);
# (5) the Python API's host time per step (host_breakdown.py).
R=bench/results/2026-12-06-library-kmeans-21
rm -rf .device/kpkg-b21 .device/kpkg-b22
tar xzf .device/call-b21.tgz -C .device && tar xzf .device/call-b22.tgz -C .device
python3 bench/ir/last_block_check.py run --dir .device/lbc --cake-run build/bin/cake-run 2>&1 | tee $OUT/last-block.log
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
CAKE_BENCH_SERIAL=0 timeout 150 python3 .device/old/bench/library/kmeans_bench.py \
  --library .device/kpkg-b21/cake_library/library --grid .device/splitk-grid.json --phase final \
  --anchors $SITE --prewarm 12 --out $OUT/splitk-b21.json > $OUT/splitk-b21.log 2>&1
tail -4 $OUT/splitk-b21.log
CAKE_BENCH_SERIAL=0 timeout 100 python3 bench/library/kmeans_bench.py \
  --library .device/kpkg-b22/cake_library/library --grid .device/splitk-grid.json --phase final \
  --anchors $SITE --out $OUT/splitk-b22.json > $OUT/splitk-b22.log 2>&1
tail -4 $OUT/splitk-b22.log
CAKE_BENCH_SERIAL=0 PREWARM=12 LIB=.device/kpkg-b22/cake_library/library TAG=b22 timeout 240 \
  bash bench/library/run_h200.sh final 0 0
timeout 60 python3 bench/library/autotune_check.py --library .device/kpkg-b22/cake_library/library \
  --grid bench/results/2026-12-06-library-kmeans-20/probe-grid.json --limit 20 \
  --out $OUT/autotune-check.json > $OUT/autotune-check.log 2>&1
tail -2 $OUT/autotune-check.log
timeout 60 python3 bench/library/host_breakdown.py --library .device/kpkg-b22/cake_library/library \
  --out $OUT/host-breakdown.json 2>&1 | tail -3
