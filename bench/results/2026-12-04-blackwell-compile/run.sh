#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../../.."
# SASS: cuobjdump/nvdisasm 13.5 from the nvidia-cuda-cuobjdump / nvidia-cuda-nvdisasm wheels on PATH.
bash bench/results/2026-12-04-blackwell-compile/make.sh
