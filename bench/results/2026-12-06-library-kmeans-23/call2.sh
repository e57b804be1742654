#!/bin/bash
# Call 2 (session 44): build 28 (build 27 + the |c|^2 kernels with 1 and 4 lanes per row for
# D <= 16 and D <= 64, families/csq.py), exported with assign_tensors, pruned to the grid and
# call 1's shapes (call2-prune.json; call-d3.tgz):
# (1) csq_check.py on call 1's 40 shapes (the narrow |c|^2 kernels against call 1's figures);
# (2) the whole grid through the package (rows of record: the GPU times of build 26's kernels,
#     which build 28 keeps for calls with c_sq, and the host time per shape through the fast path);
# (3) Lloyd on the 60 grid shapes of lloyd-sample5.json (call 1's attempt stopped at the file's
#     missing "configs" fields). ~530 s at most (the timeouts). Carry: .device/call-d3.tgz, .device/wheels.
R=bench/results/2026-12-06-library-kmeans-23
L=.device/kpkg-d3/cake_library/library
rm -rf .device/kpkg-d3 && tar xzf .device/call-d3.tgz -C .device
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
timeout 90 python3 bench/library/csq_check.py --library $L --grid libraries/kmeans/grid.json --count 40 \
  > $OUT/csq.jsonl 2> $OUT/csq.err; echo "csq_check rc=$?" >> $OUT/gpu.txt
CAKE_BENCH_SERIAL=0 PREWARM=12 LIB=$L TAG=b28 timeout 270 bash bench/library/run_h200.sh final 0 0 | tail -4
CAKE_BENCH_PRIVATE=0 ONLY=$R/lloyd-sample5.json LIB=$L TAG=sample5 timeout 120 \
  bash bench/library/run_h200.sh lloyd 0 0 | tail -3
