#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# The GPU calls' exact commands are in this folder: call2/commands.sh, call3/commands.sh and
# final/commands.sh (they ran as .device/exp2.sh, exp3.sh and final.sh from the repository root on
# the device machine). rows.json is the final call's (carrying .device/kda and .device/kda-anchors):
# gpu: TIME=routed bash bench/kda/run_h200.sh anchors,edges,grid
# Call 1's commands were not recorded in README.md (PREDICTION.md describes the call).
