#!/bin/bash
# Call 3 (session 41): the split-K finish, A/B/C on the 102 grid shapes kmeans-20 served with
# split-K, same process kind, one call: build 21 (a separate finish kernel; the runtime of
# ac6994d in .device/old), build 22 (finished in the kernel, a fence gpu in every thread),
# build 23 (finished in the kernel, only the counting thread's acq_rel fences), build 21 again.
R=bench/results/2026-12-06-library-kmeans-21
rm -rf .device/kpkg-b21 .device/kpkg-b22 .device/kpkg-b23
for b in 21 22 23; do tar xzf .device/call-b$b.tgz -C .device; done
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
arm() {  # name, bench script, package, extra
  CAKE_BENCH_SERIAL=0 timeout 120 python3 $2 --library .device/kpkg-$3/cake_library/library \
    --grid .device/splitk-grid.json --phase final --anchors $SITE $4 --out $OUT/splitk-$1.json >> $OUT/all.log 2>&1
  echo "== $1: $(grep -c . $OUT/all.log) log lines"; grep "^all " $OUT/all.log | tail -2
}
arm b21 .device/old/bench/library/kmeans_bench.py b21 "--prewarm 12"
arm b22 bench/library/kmeans_bench.py b22 ""
arm b23 bench/library/kmeans_bench.py b23 ""
arm b21again .device/old/bench/library/kmeans_bench.py b21 ""
