#!/bin/bash
# On the GPU machine (device tool), from the repository root, carrying .device/klib (built by
# libraries/kmeans/build.py) and .device/wheels (flashlib 0.4.0, flash-kmeans 0.3.1 wheels):
#   bash bench/library/run_h200.sh PHASE [START [LIMIT]]   (PHASE tune or final; results under $OUT)
# LIB=.device/kpkg/cake_library/library measures an exported package (its C++ dispatcher) instead;
# tune then times every forced configuration through the dispatcher too (as the final does).
# FAMILIES=splitd,mma tunes only those families, CONFIGS='simt_*,k16_*' only those configurations
# (fnmatch patterns), ONLY=finalists.json only the listed configurations of the listed shapes
# (final, lloyd: only those shapes); merge_tune.py merges the points into the table. CLUSTERED=1:
# tune checks every pair on clustered data too. HELDOUT=1: tune measures the held-out shapes
# instead (an evaluation table for heldout_regret.py; never merge it into the table). PREWARM=12: the final compiles the anchors for
# every shape in 12 processes first (kmeans_bench.py prewarm_anchors); lloyd compiles flashlib's step in
# that many processes ahead of the measurement (prewarm_lloyd_ahead), which takes the shapes as
# their compiles finish, cheapest D first (ready_first). TAG=name puts it in the output names.
# GRID=file measures another grid than libraries/kmeans/grid.json (probe_routing.py's probe shapes).
set -u
PHASE=$1; START=${2:-0}; LIMIT=${3:-0}
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
python3 bench/library/kmeans_bench.py --library "${LIB:-.device/klib}" --grid "${GRID:-libraries/kmeans/grid.json}" \
  --phase "$PHASE" --anchors $SITE --start "$START" --limit "$LIMIT" --families "${FAMILIES:-}" \
  --configs "${CONFIGS:-}" --only "${ONLY:-}" ${CLUSTERED:+--clustered} ${HELDOUT:+--heldout} --prewarm "${PREWARM:-0}" \
  --out "$OUT/$PHASE${TAG:+-$TAG}-$START.json" \
  > "$OUT/$PHASE${TAG:+-$TAG}-$START.log" 2>&1
rc=$?
tail -12 "$OUT/$PHASE${TAG:+-$TAG}-$START.log"
exit $rc
