#!/bin/bash
# The Blackwell examples on a B200 (sm_100a), checked and timed in one run. Not run by the CAKE
# team: there is no B200 on our machines (issue #18); the kernels have been verified, compiled
# by ptxas for sm_100a and their SASS read (bench/results/*-blackwell-compile).
#
# On a machine with a B200, the CUDA toolkit (ptxas with sm_100a: CUDA 12.8 or newer), torch and
# triton, from the repository root after the README's build:
#   FLASH_KMEANS=DIR FLASHLIB=DIR bash bench/blackwell/run_b200.sh [OUT_DIR]
# (FLASH_KMEANS / FLASHLIB: folders holding the flash_kmeans / flashlib packages, e.g. from
# `pip download --no-deps flash-kmeans flashlib`; the KMeans step is skipped without FLASH_KMEANS.)
# Writes OUT_DIR (default bench/results/<date>-blackwell-b200): each kernel's cubin, manifest,
# ptxas report and SASS; gemm.json (every GEMM against an fp32 torch product and cuBLAS:
# bf16 one-block, CTA-pair, persistent with cluster launch control and a tcgen05.cp bias, fp8) and
# kmeans.json (kmeans_blackwell against flash-kmeans and flashlib).
set -eu
OUT=${1:-bench/results/$(date +%F)-blackwell-b200}
BIN=${CAKE_BIN:-build/bin}
KERNELS="blackwell_gemm blackwell_gemm_pair blackwell_gemm_persistent blackwell_gemm_fp8 kmeans_blackwell"
mkdir -p "$OUT/kernels"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
for k in $KERNELS; do
  "$BIN/cake-opt" "examples/$k.mlir" --cake-verify -o /dev/null
  "$BIN/cake-translate" "examples/$k.mlir" --emit=cubin -o "$OUT/kernels/$k.cubin" \
    --manifest "$OUT/kernels/$k.json" --ptxas-log "$OUT/kernels/$k.ptxas.log"
  if command -v cuobjdump > /dev/null; then
    cuobjdump -sass "$OUT/kernels/$k.cubin" > "$OUT/kernels/$k.sass"
    echo "$k: $(grep -c 'UTC[A-Z]*MMA' "$OUT/kernels/$k.sass" || true) UTC*MMA instructions"
  fi
done
# The GEMMs: correctness against torch, time against cuBLAS (non-zero exit on a wrong result).
status=0
python3 bench/blackwell/check_gemms.py --cake-run "$BIN/cake-run" --kernels "$OUT/kernels" \
  --json "$OUT/gemm.json" | tee "$OUT/gemm.log" || status=1
# KMeans assignment (fp16, D = 128) against flash-kmeans and flashlib on ANCHORS.md's shapes.
if [ -n "${FLASH_KMEANS:-}" ]; then
  python3 bench/kmeans_hopper.py --cake-run "$BIN/cake-run" --kernels "$OUT/kernels" \
    --kernel kmeans_blackwell --fp16-only --flash-kmeans "$FLASH_KMEANS" \
    ${FLASHLIB:+--flashlib "$FLASHLIB"} --json "$OUT/kmeans.json" | tee "$OUT/kmeans.log"
else
  echo "FLASH_KMEANS not set: the KMeans comparison is skipped"
fi
exit $status
