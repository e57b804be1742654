#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# carry [".device/trust"], the folder made as bench/trust/README.md says:
# gpu: bash bench/trust/run_h200.sh
