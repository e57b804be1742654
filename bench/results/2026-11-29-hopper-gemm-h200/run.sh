#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
# Built here and carried in .device/:
# here: cake-translate examples/hopper_gemm.mlir --emit=cubin -o hopper_gemm.cubin --manifest hopper_gemm.json
# here: ninja cake-ref-kernels
# gpu: python3 bench/hopper_gemm.py --cake-run .device/cake-run --kernels .device/out --refs .device/ref \
# gpu:     --json $OUT/hopper_gemm.json
