#!/bin/bash
# Call K (prepareK.sh first; carry .device/callK.tgz, .device/wheels): the three-warpgroup wgmma
# variants (then build.py --wg3, now in the default plan: 192-point tiles) timed by kmeans_bench's
# tune at the 17 fp16/bf16 table points whose fastest configuration is a wgmma tile (best >= 40
# us), beside each point's three fastest, every pair also checked on clustered data; merged into a
# copy of the table to count the points where a w3 configuration is fastest. The tune walks
# $GRID (default grid.json), so the list's probe points need callK2.sh (GRID=probe-points.json).
# Call K itself ran with TAG=w3 and wrote callK/table.json (now $OUT/table-$TAG.json).
R=bench/results/2026-12-07-wgmma-w3
P=.device/kpkg-k
L=$P/cake_library/library
TAG=${TAG:-w3}
rm -rf $P && tar xzf .device/callK.tgz -C .device
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee -a $OUT/gpu-k.txt
s=$(date +%s)
CLUSTERED=1 LIB=$L ONLY=$R/w3-tune.json TAG=$TAG timeout ${TK:-150} bash bench/library/run_h200.sh tune 0 0 | tail -3
echo "tune $TAG rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu-k.txt
python3 bench/library/merge_tune.py --out $OUT/table-$TAG.json libraries/kmeans/table.json $OUT/tune-$TAG-0.json | tail -3
