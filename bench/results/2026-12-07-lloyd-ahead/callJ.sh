#!/bin/bash
# Call J (carry .device/callG.txz, .device/wheels): one Lloyd iteration (lloyd_step) against
# flashlib 0.4.0's loop body on lloyd-sample7.json: every grid shape without a Lloyd row yet
# (lloyd_coverage.py --emit-missing, 261) after one control (bf16 B6 N12980 D68 K5, last measured
# on 2026-12-01 at 1.02x). PREWARM=12: flashlib's step compiled in 12 processes ahead of the
# measurement (prewarm_lloyd_ahead). Whatever the limit leaves is measured (rows written per shape).
# SAMPLE=sample7b PREWARM=8: callJ2.sh. P=.device/kpkg-j5 ARCHIVE=.device/callJ5.txz: prepareJ5.sh's package.
R=bench/results/2026-12-07-lloyd-ahead
P=${P:-.device/kpkg-g}
L=$P/cake_library/library
SAMPLE=${SAMPLE:-sample7}
# callG.txz: call G's package (.device/kpkg-g) as xz, a quarter of the gzip archive (the carry limit);
# extracted by Python's lzma in case the machine has no xz.
rm -rf $P && python3 -c "import tarfile; tarfile.open('${ARCHIVE:-.device/callG.txz}').extractall('.device')"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee -a $OUT/gpu.txt
s=$(date +%s)
CAKE_BENCH_PRIVATE=0 PREWARM=${PREWARM:-12} ONLY=$R/lloyd-$SAMPLE.json LIB=$L TAG=$SAMPLE timeout ${T:-420} \
  bash bench/library/run_h200.sh lloyd 0 0 | tail -3
echo "lloyd $SAMPLE rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt
