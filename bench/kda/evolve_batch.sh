#!/usr/bin/env bash
# The KDA evolution task (agent/tasks/kda.json) with the batch backend: compiled here, measured on
# the GPU machine (docs/Harness.md, "the batch loop"). State: the database .device/kda-evo.db and
# the exported generations .device/evo/kda-g<G> (carry .device/evo to the GPU machine).
#   bash bench/kda/evolve_batch.sh export            # here: a new run, generation 0 exported
#   python3 .device/evo/kda-g0/run_batch.py --out "$OUT/kda-g0.json"      # GPU machine, one command
#   bash bench/kda/evolve_batch.sh ingest 0 RESULTS  # here: store generation 0, export generation 1
# The reference is build/examples/ref/kda_ref.cubin (target cake-ref-kernels); without it, nvcc
# builds examples/ref/kda.cu into .device/kda-ref/ with the same flags.
# Extra arguments after the command go to `cake evolve` (e.g. --candidates 32 --generation 8).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
db=.device/kda-evo.db
refs=build/examples/ref
if [ ! -f "$refs/kda_ref.cubin" ]; then
  refs=.device/kda-ref
  mkdir -p "$refs"
  [ -f "$refs/kda_ref.cubin" ] || "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" -cubin -arch=sm_90 -O3 \
    -o "$refs/kda_ref.cubin" examples/ref/kda.cu
fi
cmd=${1:?usage: evolve_batch.sh export | ingest G RESULTS}
shift
case "$cmd" in
  export)
    [ ! -e "$db" ] || { echo "$db exists: ingest the exported generation, or remove it for a new run" >&2; exit 2; }
    mkdir -p .device/evo
    agent/cake evolve agent/tasks/kda.json --backend batch --db "$db" --refs "$refs" \
      --batch-dir .device/evo/kda-g0 --iters 20 --rng-seed 1 "$@" ;;
  ingest)
    g=${1:?generation}; results=${2:?results.json}; shift 2
    agent/cake batch-ingest --db "$db" "$results"
    agent/cake evolve --db "$db" --resume --refs "$refs" --batch-dir ".device/evo/kda-g$((g + 1))" \
      --iters 20 "$@"
    agent/cake db tactics --db "$db" --class kda
    agent/cake db failures --db "$db" ;;
  *) echo "usage: evolve_batch.sh export | ingest G RESULTS" >&2; exit 2 ;;
esac
