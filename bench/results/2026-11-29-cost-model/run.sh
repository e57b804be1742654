#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../../.."
# Pass time (20 runs each):
for i in $(seq 20); do build/bin/cake-opt examples/hopper_gemm.mlir \
    --cake-print-cost="sizes=M=8192,N=8192,K=8192 json=/tmp/x.json" -o /dev/null --mlir-timing 2>&1 \
    | grep CakePrintCost; done
# Predicted vs measured:
python3 bench/cost/validate.py --markdown out.md
# Calibration trial on these records (not written as a profile version):
python3 bench/cost/validate.py --dataset d.json && agent/cake calibrate d.json --profile profiles/h200.json --holdout 0.35
# Ampere path and per-stage breakdown (raw/2026-11-29-examples-ampere-h200.*: the GPU run recorded
# in ../2026-11-29-gemms-h200/run.sh):
python3 bench/cost/validate.py
