#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
set -euo pipefail
cd "$(dirname "$0")/../../.."
agent/cake evolve agent/tasks/kmeans_fp16.json --backend batch --batch-dir .device/evo/kmeans_fp16-g0 \
    --db .device/evo7.db --rng-seed 5 --iters 20 --candidates 400 --gpu-evals 64 --generation 8 --screen 3
# gpu: bash bench/evolve/run_generation.sh G     # carry .device/evo .device/fk
# here: agent/cake batch-ingest --db .device/evo7.db kmeans_fp16-gG.json
# here: agent/cake evolve agent/tasks/kmeans_fp16.json --db .device/evo7.db --resume 1 --backend batch --batch-dir .device/evo/kmeans_fp16-g1
# here: python3 bench/evolve/summarize.py --db .device/evo7.db --raw bench/results/2026-12-01-evolve-kmeans-contract
# The |c|^2 loads before the wgmma chain (c21h by hoist-experiment.py in this folder, its command
# not recorded; the cubins built here from the two IR files; carry .device/tz5 and .device/fk):
# gpu: DIR=.device/tz5 NAMES="c21 c21h c21 c21h" bash bench/results/2026-12-01-kmeans-wgmma/direct-check.sh
# End to end with the final compiler:
agent/cake evolve agent/tasks/kmeans_fp16.json --backend batch --batch-dir .device/evo/kmeans_fp16-g0 \
    --db .device/evo8.db --rng-seed 6 --iters 20 --candidates 400 --gpu-evals 64 --generation 8 --screen 3
# (then as above: run_generation.sh 0, batch-ingest, --resume 1 ... -g1, run_generation.sh 1, batch-ingest)
# here: python3 bench/evolve/summarize.py --db .device/evo8.db --raw bench/results/2026-12-01-evolve-kmeans-final
# kmeans_bf16 with the final compiler: "The same commands with agent/tasks/kmeans_bf16.json,
# --db .device/evo9.db --rng-seed 7" (raw outputs in 2026-12-01-evolve-kmeans-bf16-final/).
# Where the remaining time goes (the cubins built here from the IR files; c21s by
# split-experiment.py in this folder, its command not recorded):
# gpu: DIR=.device/tz6 ANCHORS=0 NAMES="c21h c21h_noepi c21h_nomma" bash bench/results/2026-12-01-kmeans-wgmma/direct-check.sh
# gpu: DIR=.device/tz6 ANCHORS=0 NAMES="w wb2 wb2np wnp w wb2" bash bench/results/2026-12-01-kmeans-wgmma/direct-check.sh
# gpu: DIR=.device/tz6 ANCHORS=0 NAMES="c21h c21s c21h c21s" bash bench/results/2026-12-01-kmeans-wgmma/direct-check.sh
# gpu: DIR=.device/tz6 ANCHORS=0 NAMES="w wa wa16 wa4 wat128 wa16t128 wa4t128 w wa" bash bench/results/2026-12-01-kmeans-wgmma/direct-check.sh
