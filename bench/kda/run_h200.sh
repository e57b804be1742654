#!/bin/bash
# On the GPU machine (device tool), from the repository root, carrying .device/kda (built by
# libraries/kda/build.py) and .device/kda-anchors (FlashKDA's sources with the cutlass folders it
# needs, the fla-core 0.6.0 wheel and build.sh, made by bench/kda/prepare_anchors.sh):
#   bash bench/kda/run_h200.sh [CASES]      (CASES: anchors,edges by default, grid, or layer: the
#                                           end-to-end layer check; results under $OUT)
# Builds FlashKDA in place (about 90 s) unless it is already built, installs fla, then runs
# kda_bench.py. LIB=DIR measures another built library; NOANCHORS=1 runs CAKE alone (no build);
# TIME=routed times only the routed CAKE variant; FLAON=none skips fla (its autotuning is slow).
set -u
CASES=${1:-anchors,edges}
A=.device/kda-anchors
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
if [ -n "${NOANCHORS:-}" ]; then ANCH=""; else ANCH="--flashkda $A/FlashKDA --site /tmp/kda-site"; fi
if [ -z "${NOANCHORS:-}" ] && { ! PYTHONPATH=$A/FlashKDA python3 -c "import flash_kda" 2>/dev/null || [ ! -d /tmp/kda-site/fla ]; }; then
  bash $A/build.sh > "$OUT/anchors-build.log" 2>&1 || { tail -30 "$OUT/anchors-build.log"; echo "anchor build failed: the bench runs without the missing anchor"; }
fi
if [ "$CASES" = layer ]; then     # the end-to-end layer check (bench/kda/layer_check.py)
  SITEARG=""; [ -z "${NOANCHORS:-}" ] && SITEARG="--site /tmp/kda-site"
  python3 bench/kda/layer_check.py --library "${LIB:-.device/kda}" $SITEARG \
    --out "$OUT/layer.json" > "$OUT/layer.log" 2>&1
  rc=$?; tail -5 "$OUT/layer.log"; exit $rc
fi
python3 bench/kda/kda_bench.py --library "${LIB:-.device/kda}" $ANCH \
  --cases "$CASES" --time "${TIME:-all}" --fla-on "${FLAON:-anchors}" --out "$OUT/rows-${CASES//,/-}.json" > "$OUT/kda-${CASES//,/-}.log" 2>&1
rc=$?
tail -25 "$OUT/kda-${CASES//,/-}.log"
exit $rc
