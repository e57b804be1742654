#!/usr/bin/env bash
# The main job at this stage: install what is missing, build, compile every example to a cubin
# and its manifest, and, where a GPU is present, run each through cake-run against its reference
# kernel over 3 shapes x 3 seeds. Without a GPU it compiles and says so.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CAKE_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh"

out=$build/examples/out
mkdir -p "$out"
# Compile for the GPU that is here (an sm_80 cubin does not load on sm_90, nor the reverse):
# kernels declare their minimum target; Hopper machines get sm_90a, Ampere ones sm_80.
chip_args=()
if command -v nvidia-smi >/dev/null && cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1); then
  case "$cap" in
    9.0) chip_args=(--chip=sm_90a) ;;
    8.*) chip_args=(--chip=sm_80) ;;
  esac
fi
for example in vector_add softmax gemm kmeans_assign hopper_gemm kmeans_hopper kmeans_hopper_f32 ampere_gemm; do
  "$build/bin/cake-translate" "$root/examples/$example.mlir" --emit=cubin "${chip_args[@]}" \
    -o "$out/$example.cubin" --manifest "$out/$example.json" --ptxas-log "$out/$example.ptxas.txt"
  regs=$(grep -o 'Used [0-9]* registers' "$out/$example.ptxas.txt" | head -1)
  echo "compiled $example -> $out/$example.cubin ($regs)"
done

if [[ ! -x $build/bin/cake-run ]]; then
  echo "cake-run was not built (no cuda.h): compiled only"
  exit 0
fi
status=0
python3 "$root/bench/run_examples.py" --cake-run "$build/bin/cake-run" --kernels "$out" \
  --refs "$build/examples/ref" --json "$out/results.json" || status=$?
if [[ $status -eq 5 ]]; then
  echo "no GPU on this machine: the examples were compiled, not run (model-only mode)"
  exit 0
fi
exit $status
