#!/bin/bash
# For callI.sh, here: the pending batches (exported, no results yet), run.sh, order.txt and cake-run
# in one archive (.device/callI.tgz): the whole .device/evo-lib/gpu (every generation's folders,
# 33 MB after session 48) with the tree passes the device tool's 64 MiB carry limit.
set -e
cd .device/evo-lib/gpu
pending=$(for d in */; do d=${d%/}; [ -f "$d/plan.json" ] && [ ! -f "$d/results.json" ] && echo "$d"; done)
tar czf ../../callI.tgz cake-run run.sh order.txt $pending
echo "$(echo $pending | wc -w) pending batches: $(ls -la ../../callI.tgz)"
