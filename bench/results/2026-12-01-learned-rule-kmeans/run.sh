#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
# Learning, from task A's database (bench/results/2026-12-01-kmeans-wgmma, run 3):
# here: agent/cake learn rules --db evo3.db --min-members 1 --bin build/bin --save test/Verify/learned
# Task B with the rule (the rule file has since moved to rules/learned/):
# here: agent/cake evolve agent/tasks/kmeans_bf16.json --backend batch --batch-dir .device/evo/kmeans_bf16-g0 \
# here:     --db .device/evo4.db --rng-seed 3 --iters 20 --candidates 400 --gpu-evals 64 --generation 8 --screen 3 \
# here:     --rules test/Verify/learned/learned_compile_error_cake_wgmma_regs_vector_64xf32_threads1024.pdl
# then per generation G: bash bench/evolve/run_generation.sh G on the GPU machine, batch-ingest, --resume
# Counts:
# here: python3 bench/evolve/rule_replay.py --db DB --rule RULE
# A model-only run of task B without the rule:
agent/cake evolve agent/tasks/kmeans_bf16.json --db before.db --backend model-only --rng-seed 7 \
    --candidates 150 --generation 16
