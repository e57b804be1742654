#!/usr/bin/env bash
# Configures (once) and builds CAKE into ${CAKE_BUILD_DIR:-build} with clang-22, lld and libMLIR.so.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CAKE_BUILD_DIR:-$root/build}
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}

if [[ ! -f $build/build.ninja ]]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DPython3_EXECUTABLE="$(python3 -c 'import sys; print(sys.executable)')" \
    "${launcher[@]}"
fi
ninja -C "$build" -j "${CAKE_JOBS:-$(nproc)}"
