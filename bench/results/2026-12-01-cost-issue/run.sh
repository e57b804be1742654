#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
# Every GPU-measured candidate re-predicted with the old and the new cake-opt:
# here: python3 bench/cost/recost_db.py --db .device/evo.db --db .device/evo3.db --db .device/evo6.db \
# here:     --db .device/evo4.db --db .device/evo5.db --json recost-{before,after}.json
# Did it change the search? gemm_rb again, same rng seed:
agent/cake evolve agent/tasks/gemm_rb.json --backend batch --batch-dir .device/evo/gemm_rb-g0 \
    --db .device/evo10.db --rng-seed 3 --iters 50 --candidates 400 --gpu-evals 64 --generation 12 --screen 3
# (run_generation.sh 0 and 1 on the GPU machine, batch-ingest, --resume; raw outputs in cost-issue/gemm_rb-rerun/)
