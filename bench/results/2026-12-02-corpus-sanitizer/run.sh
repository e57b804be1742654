#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
python3 bench/verify-corpus/gpu/build.py        # here: cubins, manifests, plan.json
# Device tool, carrying bench/verify-corpus/gpu/cubins and build/bin/cake-run:
# gpu: CS=$(which compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
# gpu: python3 bench/verify-corpus/gpu/run_gpu.py --cake-run build/bin/cake-run --out $OUT \
# gpu:   --only "$(cat bench/verify-corpus/gpu/sanitize-only.txt)" --sanitize auto \
# gpu:   --compute-sanitizer "$CS" --timeout 30 --budget 420 --correct-first
