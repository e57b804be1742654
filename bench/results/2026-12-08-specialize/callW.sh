#!/bin/bash
# Call W (the package of prepare.sh; carry .device/callV.txz .device/wheels): Lloyd at the 26 shapes
# of lloyd-rb.json (call U's 20 wide-D rows, D 1049-1693, and 6 of call J5's rows with D < 256),
# the default end (a warp per centroid row) beside the row-per-block centroids kernel
# (`cake_centroids_alt`: km_<dtype>_centroids_rb) and the torch end, flashlib's step in the same
# process. CAKE_BENCH_PRIVATE=0: no update A/B. PREWARM=6 compiles flashlib's steps ahead.
# Part 2: Lloyd at the 12 grid shapes of update-above264.json (privatized updates with 269-1809
# blocks at chunks of 256, where the rule keeps 256 unmeasured against 64), every update chunk
# timed beside the routed step (CAKE_BENCH_PRIVATE=1).
R=bench/results/2026-12-08-specialize
P=.device/kpkg-v
L=$P/cake_library/library
[ -d $P ] || python3 -c "import tarfile; tarfile.open('.device/callV.txz').extractall('.device')"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee -a $OUT/gpu.txt
s=$(date +%s)
CAKE_BENCH_PRIVATE=0 PREWARM=6 ONLY=$R/lloyd-rb.json LIB=$L TAG=rb timeout ${TW:-320} \
  bash bench/library/run_h200.sh lloyd 0 0 | tail -2
echo "lloyd rb rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt; s=$(date +%s)
CAKE_BENCH_PRIVATE=1 PREWARM=6 ONLY=$R/update-above264.json LIB=$L TAG=u264 timeout ${TU:-200} \
  bash bench/library/run_h200.sh lloyd 0 0 | tail -2
echo "lloyd u264 rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
ls $OUT
