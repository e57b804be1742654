#!/bin/bash
# Generation 1 of the 27 buckets (graph timer, the profile refitted on call D's generation 0) and
# the last bucket of generation 0 that call D's 200 s cut off. Carry .device/evo-lib/gpu.
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
s=$(date +%s); timeout ${T:-270} bash .device/evo-lib/gpu/run.sh > $OUT/run.txt 2>&1
echo "evolve rc=$? $(( $(date +%s) - s )) s" >> $OUT/gpu.txt
(cd .device/evo-lib/gpu && tar czf $OUT/results.tgz $(ls */results.json */run.log 2>/dev/null))
