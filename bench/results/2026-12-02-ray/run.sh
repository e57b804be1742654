#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
set -euo pipefail
cd "$(dirname "$0")/../../.."
# Fault tests (a local cluster of 2 CPUs and 2 declared GPUs):
(cd agent && CAKE_BUILD_DIR=../build python3 -m unittest tests.test_ray_backend -v)
# Orchestration dry run (stand-in cake-run; files dryrun-evolve-*.json):
bench/ray/compare_backends.py evolve --declare-gpus 2
# Not run (no GPU here); the command for one H200 (.device/klib built by libraries/kmeans/build.py,
# the anchors installed as in bench/library/run_h200.sh), and for 2 or 4 GPUs the same:
# gpu: python3 bench/ray/compare_backends.py library --library .device/klib --phase final --anchors /tmp/cake-anchors --chunk 12 --out $OUT/ray-library
