#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# gpu: python3 bench/run_examples.py --cake-run .device/cake-run --kernels .device/out --refs .device/ref \
# gpu:     --only ampere_gemm,hopper_gemm_bf16 --json $OUT/examples_gemms.json
# gpu: python3 bench/hopper_gemm.py --cake-run .device/cake-run --kernels .device/out --refs .device/ref \
# gpu:     --json $OUT/hopper_gemm.json
# ampere_gemm recompiled for the H200 (an sm_80 cubin does not load on sm_90: the first run's
# records show CUDA_ERROR_NO_BINARY_FOR_GPU), then:
# gpu: python3 bench/run_examples.py ... --only ampere_gemm --json $OUT/examples_ampere.json
# TMA multicast across a cluster (examples/tma_multicast.mlir):
# gpu: python3 bench/run_examples.py --cake-run .device/cake-run --kernels .device/out --refs .device/ref \
# gpu:     --only tma_multicast --json $OUT/examples_multicast.json
# wgmma with A from registers (examples/hopper_gemm_rs.mlir):
# gpu: python3 bench/run_examples.py ... --only hopper_gemm_rs --json $OUT/examples_rs.json
