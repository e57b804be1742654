#!/bin/bash
# The Blackwell GEMM on a B200 (sm_100a), checked and timed against a reference kernel and
# cuBLAS in one run. Not run by the CAKE team: there is no B200 on our machines (issue #18);
# the kernel has only been verified, compiled and its SASS-level ptxas report read.
#
# On a machine with a B200, the CUDA toolkit (nvcc, ptxas with sm_100a: CUDA 12.8 or newer),
# torch and triton, from the repository root after the README's build:
#   bash bench/blackwell/run_b200.sh [OUT_DIR]
# Writes OUT_DIR (default bench/results/<date>-blackwell-b200) with the cubin, its manifest,
# ptxas report, SASS (when cuobjdump is there) and gemm.json; prints one line per shape
# (check against the reference with rtol 1e-4, CAKE ms and TFLOP/s, cuBLAS's, the ratio).
set -eu
OUT=${1:-bench/results/$(date +%F)-blackwell-b200}
BIN=${CAKE_BIN:-build/bin}
mkdir -p "$OUT/kernels" "$OUT/refs"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
"$BIN/cake-opt" examples/blackwell_gemm.mlir --cake-verify -o /dev/null
"$BIN/cake-translate" examples/blackwell_gemm.mlir --emit=cubin -o "$OUT/kernels/blackwell_gemm.cubin" \
  --manifest "$OUT/kernels/blackwell_gemm.json" --ptxas-log "$OUT/kernels/blackwell_gemm.ptxas.log"
if command -v cuobjdump > /dev/null; then
  cuobjdump -sass "$OUT/kernels/blackwell_gemm.cubin" > "$OUT/kernels/blackwell_gemm.sass"
  grep -c "UTCHMMA\|UTCMMA\|UTCQMMA" "$OUT/kernels/blackwell_gemm.sass" || echo "no UTC*MMA in the SASS"
fi
# The reference: the same plain CUDA GEMM the Hopper example is checked against, for sm_100a.
nvcc -cubin -arch=sm_100a -O3 -o "$OUT/refs/hopper_gemm_ref.cubin" examples/ref/hopper_gemm.cu
python3 bench/hopper_gemm.py --cake-run "$BIN/cake-run" --kernels "$OUT/kernels" --refs "$OUT/refs" \
  --kernel blackwell_gemm --ref-entry hopper_gemm_ref --no-bf16-out --json "$OUT/gemm.json" | tee "$OUT/gemm.log"
