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
compiled=0
for example in vector_add softmax gemm kmeans_assign hopper_gemm hopper_gemm_bf16 kmeans_hopper \
               kmeans_hopper_f32 ampere_gemm tma_multicast hopper_gemm_rs; do
  # An example whose ops the GPU here lacks (wgmma on Ampere) is skipped with the compiler's reason.
  if ! "$build/bin/cake-translate" "$root/examples/$example.mlir" --emit=cubin "${chip_args[@]}" \
      -o "$out/$example.cubin" --manifest "$out/$example.json" --ptxas-log "$out/$example.ptxas.txt" \
      2> "$out/$example.err"; then
    echo "skipped $example for ${chip_args[*]:-its own target}: $(head -1 "$out/$example.err")"
    rm -f "$out/$example.cubin" "$out/$example.json"
    continue
  fi
  compiled=$((compiled + 1))
  regs=$(grep -o 'Used [0-9]* registers' "$out/$example.ptxas.txt" | head -1)
  echo "compiled $example -> $out/$example.cubin ($regs)"
done
[[ $compiled -gt 0 ]] || { echo "no example compiled"; exit 1; }

status=0
if [[ ! -x $build/bin/cake-run ]]; then
  echo "cake-run was not built (no cuda.h): compiled only"
else
  python3 "$root/bench/run_examples.py" --cake-run "$build/bin/cake-run" --kernels "$out" \
    --refs "$build/examples/ref" --json "$out/results.json" || status=$?
  if [[ $status -eq 5 ]]; then
    echo "no GPU on this machine: the examples were compiled, not run"
    status=0
  fi
fi

# Evolve a kernel with the harness: on the GPU when there is one, else model-only (it says so).
echo "== agent/cake evolve agent/tasks/softmax.json (built-in search policy)"
"$root/agent/cake" evolve "$root/agent/tasks/softmax.json" --backend auto \
  --db "$build/cake-runs.db" --bin "$build/bin" --refs "$build/examples/ref" || status=$?
exit $status
