#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
# Run 1: tensorize tactic, no pre-screen (rng seed 1)
agent/cake evolve agent/tasks/kmeans_fp16.json --backend batch --batch-dir .device/evo/kmeans_fp16-g0 \
    --db .device/evo.db --rng-seed 1 --iters 20 --candidates 64 --gpu-evals 64 --generation 8
# GPU machine, .device carried (cake-run, the batch folders, flash-kmeans sources in .device/fk):
# gpu: bash bench/evolve/run_generation.sh G
# here: agent/cake batch-ingest --db .device/evo.db kmeans_fp16-gG.json
# here: agent/cake evolve --db .device/evo.db --resume 1 --backend batch --batch-dir .device/evo/kmeans_fp16-g(G+1)
# Run 2: the same with the pre-screen (budget.screen = 3, rng seed 2)
agent/cake evolve agent/tasks/kmeans_fp16.json --backend batch --batch-dir .device/evo/kmeans_fp16-g0 \
    --db .device/evo.db --rng-seed 2 --iters 20 --candidates 400 --gpu-evals 64 --generation 8 --screen 3
# (then the same loop with --resume 2; four GPU calls of 81, 25, 28 and 12 s of wall time)
