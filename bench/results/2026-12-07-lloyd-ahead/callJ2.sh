#!/bin/bash
# Call J2 (carry .device/callG.txz, .device/wheels): one Lloyd iteration (lloyd_step) against
# flashlib 0.4.0's loop body on lloyd-sample7b.json: every grid shape without a Lloyd row after call J
# (lloyd_coverage.py --emit-missing, 247). PREWARM=8: flashlib's step compiled in 8 processes ahead
# of the measurement (prewarm_lloyd_ahead), now capped at half the GPU's memory together (call J's
# 12 uncapped workers left the measurement out of memory at its 16th shape). Whatever the limit leaves is measured (rows written per shape).
R=bench/results/2026-12-07-lloyd-ahead
P=.device/kpkg-g
L=$P/cake_library/library
# callG.txz: call G's package (.device/kpkg-g) as xz, a quarter of the gzip archive (the carry limit);
# extracted by Python's lzma in case the machine has no xz.
rm -rf $P && python3 -c "import tarfile; tarfile.open('.device/callG.txz').extractall('.device')"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu-j2.txt
s=$(date +%s)
CAKE_BENCH_PRIVATE=0 PREWARM=${PREWARM:-8} ONLY=$R/lloyd-sample7b.json LIB=$L TAG=sample7b timeout ${T:-420} \
  bash bench/library/run_h200.sh lloyd 0 0 | tail -3
echo "lloyd rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu-j2.txt
