#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
# 1. Direct option study (direct-make.sh and direct-check.sh are in this folder):
# here: bench/results/2026-12-01-kmeans-wgmma/direct-make.sh PPB "OPTIONS" NAME .device/tz2
# gpu: NAMES="..." bash bench/results/2026-12-01-kmeans-wgmma/direct-check.sh
# 2. Evolution from the naive seed (fresh database, rng seed 3):
agent/cake evolve agent/tasks/kmeans_fp16.json --backend batch --batch-dir .device/evo/kmeans_fp16-g0 \
    --db .device/evo3.db --rng-seed 3 --iters 20 --candidates 400 --gpu-evals 64 --generation 8 --screen 3
# GPU machine, .device/evo and .device/fk carried (the folders hold cake-run, cubins, references):
# gpu: bash bench/evolve/run_generation.sh G
# here: agent/cake batch-ingest --db .device/evo3.db kmeans_fp16-gG.json
# here: agent/cake evolve --db .device/evo3.db --resume 1 --backend batch --batch-dir .device/evo/kmeans_fp16-g(G+1)
# here: python3 bench/evolve/summarize.py --db .device/evo3.db --raw bench/results/2026-12-01-kmeans-wgmma
# 2b. Generation 0 proposing the seed's tactic children (rng seed 4):
agent/cake evolve agent/tasks/kmeans_fp16.json --backend batch --batch-dir .device/evo/kmeans_fp16-g0 \
    --db .device/evo6.db --rng-seed 4 --iters 20 --candidates 400 --gpu-evals 64 --generation 8 --screen 3
# gpu: bash bench/evolve/run_generation.sh 0      # one GPU call, 28 s of wall time
# 4. Contracting the epilogue into FMAs, by hand on wf8's IR:
# here: sed -E 's/(arith\.(mulf|subf) [^:]*) : f32/\1 fastmath<contract> : f32/' wf8.mlir > wf8c.mlir
