#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
python3 libraries/kda/build.py --out .device/kda
# here: bash bench/kda/prepare_anchors.sh /work/.mirror/MoonshotAI+FlashKDA/repo /work/.mirror/NVIDIA+cutlass/repo
# device, carrying .device/kda and .device/kda-anchors
# gpu: bash bench/kda/run_h200.sh anchors,edges                 # call 6 (also calls 1)
# gpu: NOANCHORS=1 bash bench/kda/run_h200.sh anchors,edges     # calls 3, 5 (CAKE alone)
# gpu: ncu --kernel-name regex:kda_chunk --launch-skip 1 --launch-count 1 --section WarpStateStats \
# gpu:     --section SchedulerStats --section SourceCounters --section MemoryWorkloadAnalysis_Tables \
# gpu:     --section Occupancy --print-details all python3 bench/kda/profile_one.py --library .device/kda \
# gpu:     --kernel kda_chunk_c16_v64 --seq-lens 8192 --heads 96              # call 4
