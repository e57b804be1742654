#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
bash bench/kda/evolve_batch.sh export --candidates 8       # generation 0 (5 candidates)
# gpu: python3 .device/evo/kda-g0/run_batch.py --out $OUT/kda-g0.json            # call 1
# here: bash bench/kda/evolve_batch.sh ingest 0 kda-g0.json           # generation 1 (2 candidates)
# gpu: python3 .device/evo/kda-g1/run_batch.py --out $OUT/kda-g1.json            # call 2
# here: bash bench/kda/evolve_batch.sh ingest 1 kda-g1.json           # the search stops: exhausted
