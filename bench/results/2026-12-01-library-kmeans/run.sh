#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
# here: python3 libraries/kmeans/grid.py            # wrote libraries/kmeans/grid.json (seed 2026)
python3 libraries/kmeans/build.py --out .device/klib
# GPU machine, repository root, carrying .device/klib and .device/wheels:
# gpu: bash bench/library/run_h200.sh tune 0 210; bash bench/library/run_h200.sh tune 210 210
# gpu: bash bench/library/run_h200.sh final 0 140
# gpu: bash bench/library/run_h200.sh final 140 280
