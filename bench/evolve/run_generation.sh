#!/usr/bin/env bash
# One GPU-machine call of the harness's batch evolution: every exported generation under
# .device/evo/<task>-g<N>/ (cake evolve --backend batch --batch-dir ...) runs with run_batch.py,
# then the anchors of the same tasks are measured in the same call. Results land in $OUT.
#   bash bench/evolve/run_generation.sh G     (G: the generation number to run)
set -u
g=$1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
for d in .device/evo/*-g$g; do
  t=$(basename "$d" -g$g)
  python3 "$d/run_batch.py" --out "$OUT/$t-g$g.json" | tail -3
done
tasks=$(ls -d .device/evo/*-g$g | xargs -n1 basename | sed "s/-g$g\$//" | paste -sd, -)
python3 bench/evolve/anchors.py --flash-kmeans .device/fk --tasks "$tasks" --json "$OUT/anchors-g$g.json" 2>&1 | grep -v Warning
