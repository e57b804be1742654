#!/bin/bash
# Call U (prepare.sh first; carry .device/callU.txz .device/wheels), each part under its own limit:
#  1. Lloyd on the 23 update A/B shapes (ab-shapes.json) with every privatized update variant
#     timed beside the routed step (CAKE_BENCH_PRIVATE=1: chunks 32, 64, 256, 2048), PREWARM=6;
#  2. fp32 B2 N19727 D2432 K116: its 6 fastest table configurations re-timed (tune), then its
#     final row (the routed kernel, flashlib, flash-kmeans in one process);
#  3. Lloyd on the 43 grid shapes still without a row (lloyd-sample7e.json), the centroids
#     kernel now the default end.
# The device tool returns at most 8 files: the logs go into one logs.tgz.
R=bench/results/2026-12-08-update-chunks
P=.device/kpkg-u
L=$P/cake_library/library
rm -rf $P && python3 -c "import tarfile; tarfile.open('.device/callU.txz').extractall('.device')"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee -a $OUT/gpu.txt
s=$(date +%s)
CAKE_BENCH_PRIVATE=1 PREWARM=6 ONLY=$R/ab-shapes.json LIB=$L TAG=ab timeout ${TA:-110} \
  bash bench/library/run_h200.sh lloyd 0 0 | tail -2
echo "lloyd ab rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt; s=$(date +%s)
ONLY=$R/retime-d2432.json LIB=$L TAG=d2432 timeout ${TT:-40} bash bench/library/run_h200.sh tune 0 0 | tail -2
echo "tune d2432 rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt; s=$(date +%s)
ONLY=$R/retime-d2432.json LIB=$L TAG=d2432 timeout ${TF:-70} bash bench/library/run_h200.sh final 0 0 | tail -2
echo "final d2432 rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt; s=$(date +%s)
CAKE_BENCH_PRIVATE=0 PREWARM=6 ONLY=bench/results/2026-12-07-lloyd-ahead/lloyd-sample7e.json LIB=$L TAG=sample7e \
  timeout ${TJ:-200} bash bench/library/run_h200.sh lloyd 0 0 | tail -2
echo "lloyd sample7e rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
ls $OUT
