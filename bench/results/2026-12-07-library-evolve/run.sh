#!/bin/bash
# Evolution per bucket, generation by generation (session 45). Here (the compile machine):
B=$(python3 - <<'PY'
# The 24 evolvable buckets whose kmeans-23 rows are slowest against flashlib.
import json, sys
sys.path.insert(0, "libraries/kmeans")
import evolve
rows = json.load(open("bench/results/2026-12-06-library-kmeans-23/rows.json"))
rows = rows["rows"] if isinstance(rows, dict) else rows
paths, _ = evolve.tasks("libraries/kmeans", "/tmp/evolve-probe")
ok = {json.load(open(p))["comment"]["bucket"] for p in paths}
worst = {}
for r in rows:
    b = evolve.bucket_of(r)
    if b in ok:
        worst[b] = min(worst.get(b, 9), r["flashlib_ms"] / r["cake_ms"])
# Session 46: and the three evolvable fp16/bf16 buckets of the grid's largest shapes (>= 1e11
# flops per call: the issue's >= 550 TFLOP/s goal; the best row is at 493).
large = {evolve.bucket_of(r) for r in rows
         if r["dtype"] != "float32" and 2 * r["B"] * r["N"] * r["K"] * r["D"] >= 1e11} & ok
order = sorted(worst, key=worst.get)[:24]
print(",".join(order + sorted(large - set(order))))
PY
)
agent/cake library evolve --db .device/evo-lib/lib.db --work .device/evo-lib --backend batch \
  --buckets "$B" --rng-seed 45 --jobs 2 "$@"   # later generations: --candidates N (the budget per bucket)
# GPU machine (carry .device/evo-lib/gpu), one call per generation:
#   nvidia-smi ...; timeout 500 bash .device/evo-lib/gpu/run.sh; tar czf $OUT/results.tgz ...
# Here: unpack into .device/evo-lib/gpu, then
#   agent/cake library evolve-ingest --db .device/evo-lib/lib.db --work .device/evo-lib
#   agent/cake library winners --db .device/evo-lib/lib.db --out bench/results/2026-12-07-library-evolve/winners-g0.json
# Session 50: call I (generation 1), one device call with calls L and J4 (H100; carry .device/callK.tgz
#   .device/callI.tgz .device/callG.txz .device/wheels): T=270 bash bench/results/2026-12-07-library-evolve/callI.sh
#   -> callI/ (results.tgz, run.txt); here:
#   tar xzf callI/results.tgz -C .device/evo-lib/gpu
#   agent/cake library evolve-ingest --db .device/evo-lib/lib.db --work .device/evo-lib
#   python3 bench/library/evolve_summary.py --db .device/evo-lib/lib.db --json winners-g1.json > callI/summary.md
#   agent/cake library winners --db .device/evo-lib/lib.db --emit libraries/kmeans/evolved.json
#   python3 libraries/kmeans/build.py --out /tmp/kupd-i --update-variants --variants libraries/kmeans/variants.json \
#     --dtypes float16,bfloat16 --jobs 2        # variants.json: the 4 variants of the two new winners
#   bash prepareM.sh; device: bash callM.sh (not run yet)
