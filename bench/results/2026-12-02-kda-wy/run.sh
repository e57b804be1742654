#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
python3 libraries/kda/build.py --out .device/kda               # verify + compile 9 kernels
# here: bash bench/kda/prepare_anchors.sh /work/.mirror/MoonshotAI+FlashKDA/repo /work/.mirror/NVIDIA+cutlass/repo
# on the GPU machine (device tool, carrying .device/kda and .device/kda-anchors):
# gpu: bash bench/kda/run_h200.sh anchors,edges                        # call 6 (FlashKDA + fla)
# gpu: bash bench/kda/run_h200.sh layer; bash bench/kda/run_h200.sh grid   # call 7
# gpu: TIME=routed FLAON=none bash bench/kda/run_h200.sh anchors,edges,grid  # call 8 (final)
# The table in README.md (call8/: this folder's):
# here: python3 bench/kda/rows_table.py call8/rows-anchors-edges-grid.json
