#!/bin/bash
# The next call for the buckets (prepareI.sh first; carry .device/callI.tgz): generation 1 as exported in session 48
# (`bash run.sh --candidates 24` after call E's merge: 22 buckets resumed, 1 moved to a new run, and
# the 2 buckets call E's limit cut, still at generation 0). Afterwards, here:
#   tar xzf $OUT/results.tgz -C .device/evo-lib/gpu
#   agent/cake library evolve-ingest --db .device/evo-lib/lib.db --work .device/evo-lib
#   python3 bench/library/evolve_summary.py --db .device/evo-lib/lib.db
#   agent/cake library winners --db .device/evo-lib/lib.db --emit libraries/kmeans/evolved.json
# then the winners' tune as in prepareE.sh / callE.sh (evolved_finalists.py, needed_variants --no-grid).
mkdir -p .device/evo-lib/gpu && tar xzf .device/callI.tgz -C .device/evo-lib/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
s=$(date +%s); timeout ${T:-450} bash .device/evo-lib/gpu/run.sh > $OUT/run.txt 2>&1
echo "evolve rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt
(cd .device/evo-lib/gpu && tar czf $OUT/results.tgz $(ls */results.json */run.log 2>/dev/null))
