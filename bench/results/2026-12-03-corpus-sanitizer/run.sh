#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
python3 bench/verify-corpus/gpu/build.py    # cubins, manifests, plan.json
# On the GPU machine (device tool, carrying bench/verify-corpus/gpu/cubins and build/bin/cake-run),
# this folder's commands.sh (kernel list in only.txt):
# gpu: bash commands.sh
# The table (score.json and gpu-results.json are this folder's):
# here: python3 bench/verify-corpus/score.py --cake-opt build/bin/cake-opt -j 2 --json score.json
# here: python3 bench/verify-corpus/gpu/agreement.py gpu-results.json score.json
