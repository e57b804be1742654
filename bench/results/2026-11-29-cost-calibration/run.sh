#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
# Measurement: variants generated and compiled here, timed on the GPU machine.
python3 bench/cost/sweep.py --out build/cost-sweep
# gpu: python3 bench/cost/run_sweep.py --sweep build/cost-sweep --cake-run .device/cake-run \
# gpu:     --refs .device/ref --json $OUT/cost-sweep-h200.json --budget-s 400
# Calibration here (it wrote profiles/h200.json version 2):
# here: agent/cake calibrate bench/results/2026-11-29-cost-calibration/raw/2026-11-29-cost-sweep-h200.json \
# here:     --reports build/cost-sweep/reports/*.json --profile profiles/h200.json \
# here:     -o profiles/h200.json --summary-json bench/results/2026-11-29-cost-calibration/raw/2026-11-29-cost-calibration-summary.json
