#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
python3 libraries/kmeans/build.py --out .device/klib
# here: cake library export --library .device/klib --out .device/kpkg
# tune call (carry .device/klib .device/wheels): splitd + mma on the 336 tuning shapes
# gpu: FAMILIES=splitd,mma bash bench/library/run_h200.sh tune 0 420
# here: python3 bench/library/merge_tune.py --out libraries/kmeans/table.json \
# here:     libraries/kmeans/table.json bench/results/2026-12-01-library-kmeans-2/tune-splitd-mma.json
# final call (carry .device/kpkg .device/wheels), all 420 shapes, then 8 Lloyd shapes
# gpu: LIB=.device/kpkg/cake_library/library bash bench/library/run_h200.sh final 0 420
# gpu: LIB=.device/kpkg/cake_library/library bash bench/library/run_h200.sh lloyd 0 8
