#!/bin/bash
# Call K (prepareK.sh first; carry .device/callK.tgz, .device/wheels): the three-warpgroup wgmma
# variants (then build.py --wg3, now in the default plan: 192-point tiles) timed by kmeans_bench's tune at the 17 fp16/bf16
# table points whose fastest configuration is a wgmma tile (best >= 40 us), beside each point's
# three fastest, every pair also checked on clustered data; merged into a copy of the table
# ($OUT/table.json) to count the points where a w3 configuration is fastest.
R=bench/results/2026-12-07-wgmma-w3
P=.device/kpkg-k
L=$P/cake_library/library
rm -rf $P && tar xzf .device/callK.tgz -C .device
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu-k.txt
s=$(date +%s)
CLUSTERED=1 LIB=$L ONLY=$R/w3-tune.json TAG=w3 timeout ${TK:-150} bash bench/library/run_h200.sh tune 0 0 | tail -3
echo "tune rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu-k.txt
python3 bench/library/merge_tune.py --out $OUT/table.json libraries/kmeans/table.json $OUT/tune-w3-0.json | tail -3
