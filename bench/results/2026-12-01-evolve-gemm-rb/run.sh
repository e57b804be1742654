#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
agent/cake evolve agent/tasks/gemm_rb.json --backend batch --batch-dir .device/evo/gemm_rb-g0 \
    --db .device/evo5.db --rng-seed 3 --iters 50 --candidates 400 --gpu-evals 64 --generation 12 --screen 3
# gpu: bash bench/evolve/run_generation.sh G     # .device/evo and .device/fk carried
# here: agent/cake batch-ingest --db .device/evo5.db gemm_rb-gG.json; agent/cake evolve --db .device/evo5.db --resume 1 ...
# here: python3 bench/evolve/summarize.py --db .device/evo5.db --raw bench/results/2026-12-01-evolve-gemm-rb
# screened-check.txt: the screened-out candidates measured directly in the generation-2 call, by
# this folder's screened-check.sh.
