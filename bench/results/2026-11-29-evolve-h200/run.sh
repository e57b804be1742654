#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
# Here, then one GPU call per generation; G = 0, 1, 2:
# here: agent/cake evolve agent/tasks/{gemm,softmax,kmeans_assign}.json --backend batch \
# here:     --batch-dir .device/evo/<task>-g0 --db evo.db --candidates 32 --gpu-evals 32 --generation 8 --rng-seed 1
# gpu: bash bench/evolve/run_generation.sh G
# here: agent/cake batch-ingest --db evo.db <task>-gG.json
# here: agent/cake evolve --db evo.db --resume RUN --backend batch --batch-dir .device/evo/<task>-g(G+1) [--candidates 32 ...]
# here: python3 bench/evolve/summarize.py --db evo.db --raw bench/results/2026-11-29-evolve
# The KMeans target as a task (agent/tasks/kmeans_fp16.json), later the same day:
# here: agent/cake evolve agent/tasks/kmeans_fp16.json --backend batch \
# here:     --batch-dir .device/evo/kmeans_fp16-g0 --db evo.db --rng-seed 1 --iters 5
# gpu: bash bench/evolve/run_generation.sh 0
# here: agent/cake batch-ingest --db evo.db kmeans_fp16-g0.json
# Run 2: "Same commands (--candidates 64 --gpu-evals 64 --generation 24 for gemm, --iters 5 for
# kmeans_fp16)"; generation 1 of kmeans_fp16:
# here: agent/cake evolve --db evo.db --resume 2 --candidates 16 --gpu-evals 16 --generation 10 --iters 5 \
# here:     --backend batch --batch-dir .device/evo/kmeans_fp16-g1
# gpu: bash bench/evolve/run_generation.sh 1
# Generations 2-3 of kmeans_fp16:
# here: agent/cake evolve --db evo.db --resume 2 --candidates 32|48 --gpu-evals 32|48 --generation 16 \
# here:     --iters 5 --backend batch --batch-dir .device/evo/kmeans_fp16-g2|g3
# gpu: bash bench/evolve/run_generation.sh 2|3
