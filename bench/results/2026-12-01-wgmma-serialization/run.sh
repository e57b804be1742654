#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
# Call 1:
# here: bench/results/2026-12-01-kmeans-wgmma/direct-make.sh PPB "OPTIONS" NAME .device/tz4
# gpu: DIR=.device/tz4 NAMES="old zs8 n8 n8b2 n4 n16 n8t128 n16t128 n4t128 n16b2" bash bench/results/2026-12-01-kmeans-wgmma/direct-check.sh
# Call 2:
# here: cake-translate examples/E.mlir --emit=cubin --chip=sm_90a -o .device/ex-V/E.cubin --manifest ...
# gpu: python3 bench/run_examples.py --cake-run .device/ex-tools/cake-run --kernels .device/ex-V \
# gpu:     --refs .device/ex-tools/ref --only gemm,hopper_gemm,hopper_gemm_bf16,kmeans_hopper,kmeans_hopper_f32,ampere_gemm,hopper_gemm_rs
# ptx_floor.py (this folder) gives its own commands in its docstring; the first line of
# raw/2026-12-01-throughput-gemm-rb.txt gives the command that wrote it.
