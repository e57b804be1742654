#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
python3 libraries/kmeans/build.py --out .device/klib          # 522 + 6 + 3 kernels, 2 min 15 s
# gpu: CONFIGS='simt_*,direct_*,k16_*,k32_*,sd?_k16_*' bash bench/library/run_h200.sh tune 0 420
#     -> died on k16 (misaligned address): tune-0-misaligned-k16.log
# gpu: CONFIGS='simt_*,direct_*,k32_*' bash bench/library/run_h200.sh tune 0 420   # tune-simt-direct-k32.*
# fix, rebuild .device/klib
# gpu: CONFIGS='k16_*,sd?_k16_*' bash bench/library/run_h200.sh tune 0 420         # tune-k16.*
# gpu: ONLY=bench/results/2026-12-01-library-kmeans-3/finalists.json \
# gpu:     bash bench/library/run_h200.sh tune 0 420                               # tune-finalists.*
# here: python3 bench/library/merge_tune.py --out libraries/kmeans/table.json libraries/kmeans/table.json \
# here:     tune-simt-direct-k32.json tune-k16.json tune-finalists.json
# here: agent/cake library export --library .device/klib --out .device/kpkg
# gpu: python3 bench/library/diag_launch.py .device/kpkg/cake_library/library
# gpu: LIB=.device/kpkg/cake_library/library bash bench/library/run_h200.sh final 0 420   # rows.json
# gpu: LIB=.device/kpkg/cake_library/library timeout 200 bash bench/library/run_h200.sh lloyd 0 40
