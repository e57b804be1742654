#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# Compiled here: `cake-translate examples/<name>.mlir --emit=cubin ...` (cubins, manifests),
# `ninja cake-ref-kernels` (references); flash-kmeans' flash_kmeans package from
# github.com/svg-project/flash-kmeans (3f1ea6b) copied beside the project, not committed.
# gpu: python3 bench/run_examples.py --cake-run .device/cake-run --kernels .device/out --refs .device/ref \
# gpu:     --only kmeans_hopper,hopper_gemm --json $OUT/examples_hopper.json
# gpu: python3 bench/kmeans_hopper.py --cake-run .device/cake-run --kernels .device/out \
# gpu:     --flash-kmeans .device/fk --json $OUT/kmeans_hopper.json
# Second run: fp32 inputs (examples/kmeans_hopper_f32.mlir):
# gpu: python3 bench/run_examples.py ... --only kmeans_hopper_f32 --json $OUT/examples_f32.json
# gpu: python3 bench/kmeans_hopper.py --cake-run .device/cake-run --kernels .device/out \
# gpu:     --flash-kmeans .device/fk --json $OUT/kmeans_hopper.json
# Third run: persistent kernels:
# gpu: python3 bench/run_examples.py ... --kernels .device/outp --only kmeans_hopper,kmeans_hopper_f32
# gpu: python3 bench/kmeans_hopper.py --cake-run .device/cake-run --kernels .device/outp \
# gpu:     --flash-kmeans .device/fk --json $OUT/kmeans_persistent.json
