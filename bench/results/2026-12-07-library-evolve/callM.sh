#!/bin/bash
# Call M (prepareM.sh first; carry .device/callM.tgz, .device/wheels): every evolved
# configuration timed by kmeans_bench's tune at its bucket's table points beside the points' two
# best, each pair also checked on clustered data, merged into a copy of the table
# ($OUT/table-m.json: commit it as libraries/kmeans/table.json where an evolved one wins).
R=bench/results/2026-12-07-library-evolve
P=.device/kpkg-m
rm -rf $P && tar xzf .device/callM.tgz -C .device
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee -a $OUT/gpu-m.txt
s=$(date +%s)
CLUSTERED=1 LIB=$P/cake_library/library ONLY=$R/evolved-m.json TAG=evolved-m timeout ${TM:-120} \
  bash bench/library/run_h200.sh tune 0 0 | tail -3
echo "tune evolved-m rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu-m.txt
python3 bench/library/merge_tune.py --out $OUT/table-m.json libraries/kmeans/table.json $OUT/tune-evolved-m-0.json | tail -3
