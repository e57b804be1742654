#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# Cubins compiled here with `cake-translate --emit=cubin [--hang-timeout-ms=N] --manifest=...` (see
# the script's comments), .device/ carried:
# gpu: bash bench/hang/run_device.sh
# Barriers (later the same day):
# gpu: bash bench/hang/run_barriers.sh
