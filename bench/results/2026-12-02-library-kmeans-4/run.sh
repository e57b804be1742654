#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
python3 libraries/kmeans/build.py --out .device/klib          # 588 + 6 + 3 kernels, 2 min 30 s
agent/cake library export --library .device/klib --out .device/kpkg
# Device calls carried .device/klib, .device/kpkg, .device/wheels.
# call 1 (389 s)
# gpu: python3 bench/library/diag_launch.py .device/kpkg/cake_library/library      # diag.log
# gpu: CONFIGS='lanes_*,direct_*,simt_*' bash bench/library/run_h200.sh tune 0 420  # tune-asis.*
# (here) lanes rewritten; finalists
# here: python3 bench/library/merge_tune.py --drop lanes_ --out /tmp/table-nolanes.json \
# here:     libraries/kmeans/table.json tune-asis.json
# here: python3 bench/library/finalists.py /tmp/table-nolanes.json --below-ms 0.1 --skip lanes > finalists.json
# call 2 (307 s)
# gpu: CONFIGS='lanes_*' TAG=lanes bash bench/library/run_h200.sh tune 0 420                  # tune-lanes-0.*
# gpu: ONLY=finalists.json TAG=finalists bash bench/library/run_h200.sh tune 0 420          # tune-finalists-0.*
# (here) lanes loads unmasked; call 3 (148 s)
# gpu: CONFIGS='lanes_*' TAG=lanes2 bash bench/library/run_h200.sh tune 0 420                 # tune-lanes2-0.*
# (here) merge (tune-asis, finalists with lanes dropped; then lanes2), patch the table into
# .device/klib/library.json, export .device/kpkg
# call 4 (472 s, cut by its timeout at shape 400)
# gpu: LIB=.device/kpkg/cake_library/library timeout 495 bash bench/library/run_h200.sh final 0 420  # rows.json, final.log
# After the call (CPU only):
python3 bench/library/route_cv.py --library .device/klib
