#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
set -euo pipefail
cd "$(dirname "$0")/../../.."
python3 bench/verify_mutants.py --emit-corpus /tmp/mut --json /tmp/mut.json
python3 bench/crosscheck_new_rules.py /tmp/mut /tmp/mut.json .device/san2
# gpu: cd .device && python3 ../bench/sanitize_examples.py --cake-run ./cake-run --kernels san2 \
# gpu:     --plan san2/plan.json --json $OUT/crosscheck.json --timeout 45
