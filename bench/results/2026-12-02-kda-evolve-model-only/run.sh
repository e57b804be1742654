#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
agent/cake evolve agent/tasks/kda.json --backend model-only --candidates 8 --db /tmp/kda.db
# On the GPU (batch backend; not run yet when this was written, the export exercised here):
bash bench/kda/evolve_batch.sh export                     # here: run 1, generation 0 -> .device/evo/kda-g0
# gpu: python3 .device/evo/kda-g0/run_batch.py --out $OUT/kda-g0.json   # .device/evo carried
# here: bash bench/kda/evolve_batch.sh ingest 0 kda-g0.json       # ingest, export generation 1
