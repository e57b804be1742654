#!/usr/bin/env bash
# The hang-debug check on the GPU machine (run from the repo root with .device/ carried; see
# bench/results/2026-11-29-hang-debug-h200/README.md). Needs only .device/cake-run and the cubins.
set -u
R=.device/cake-run
H=.device/hang
run() { echo "### $*"; "$@"; echo "exit=$?"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# 1. The planted deadlock, debug build: 256 | K runs correct; K = 1000 must name the stalled op.
run $R --cubin $H/floor_dbg.cubin --manifest $H/floor_dbg.json --sizes B=1,N=1024,K=1024 \
    --ref .device/ref/kmeans_hopper_ref.cubin --ref-entry kmeans_hopper_ref --iters 5 --timeout 30
run $R --cubin $H/floor_dbg.cubin --manifest $H/floor_dbg.json --sizes B=1,N=1024,K=1000 \
    --ref .device/ref/kmeans_hopper_ref.cubin --ref-entry kmeans_hopper_ref --iters 5 --timeout 30
# 2. The same kernel without the debug lowering: only the runner's timeout, nothing named.
run $R --cubin $H/floor.cubin --manifest $H/floor.json --sizes B=1,N=1024,K=1000 --iters 5 --timeout 8
# 3. Cost of the debug lowering on correct kernels (same run, same shapes).
for v in kh kh_dbg; do
  run $R --cubin $H/$v.cubin --manifest $H/$v.json --sizes B=32,N=16384,K=1024 \
      --ref .device/ref/kmeans_hopper_ref.cubin --iters 50 --timeout 60
done
for v in hg hg_dbg; do
  run $R --cubin $H/$v.cubin --manifest $H/$v.json --sizes M=8192,N=8192,K=8192 \
      --ref .device/ref/hopper_gemm_ref.cubin --iters 20 --timeout 120
done
