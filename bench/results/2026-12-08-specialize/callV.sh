#!/bin/bash
# Call V (prepare.sh first; carry .device/callV.txz .device/wheels), each part under its own limit:
#  1. tune: at the 17 tuned rows of shapes.json, each generic configuration of only.json beside its
#     D-specialized and fully specialized builds (one process, graph-timed medians);
#  2. the same at the 4 held-out rows (HELDOUT=1; never merged into the routing table);
#  3. part 1's points merged into a copy of the table, put into the package (retable_package.py),
#     then the final at the 17 tuned rows: the routed kernel (a specialized one where it was
#     fastest), flashlib and flash-kmeans in one process.
# The device tool returns at most 8 files: the logs go into one logs.tgz.
R=bench/results/2026-12-08-specialize
P=.device/kpkg-v
L=$P/cake_library/library
rm -rf $P && python3 -c "import tarfile; tarfile.open('.device/callV.txz').extractall('.device')"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee -a $OUT/gpu.txt
s=$(date +%s)
ONLY=$R/only.json LIB=$L TAG=spec timeout ${TT:-150} bash bench/library/run_h200.sh tune 0 0 | tail -2
echo "tune spec rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt; s=$(date +%s)
HELDOUT=1 ONLY=$R/only.json LIB=$L TAG=spec-heldout timeout ${TH:-60} bash bench/library/run_h200.sh tune 0 0 | tail -2
echo "tune spec-heldout rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt; s=$(date +%s)
python3 bench/library/merge_tune.py --out /tmp/table-v.json libraries/kmeans/table.json $OUT/tune-spec-0.json \
  && python3 bench/library/retable_package.py --package $P --table /tmp/table-v.json --grid .device/grid-v.json \
  > $OUT/retable.log 2>&1
echo "retable rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt; s=$(date +%s)
PREWARM=6 ONLY=$R/only.json LIB=$L TAG=spec timeout ${TF:-150} bash bench/library/run_h200.sh final 0 0 | tail -2
echo "final spec rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt
(cd $OUT && tar czf logs.tgz *.log && rm -f *.log)
ls $OUT
