#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# The plan (.device/san/plan.json) was built here by a script whose command was not recorded.
# Run 1, under compute-sanitizer:
# gpu: cd .device && python3 ../bench/sanitize_examples.py --cake-run ./cake-run --kernels san \
# gpu:     --plan san/plan.json --json $OUT/sanitize.json
# Run 2, every kernel checked against its reference kernel:
# gpu: cd .device && python3 ../bench/sanitize_examples.py --no-sanitizer --cake-run ./cake-run \
# gpu:     --kernels san --plan san/plan.json --json $OUT/reference_checked.json
