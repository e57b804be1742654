#!/bin/sh
# Builds libcake_library.so from this folder (Dispatch.cpp, the generated LibraryTable.inc and
# cake-run's driver loader): needs a C++17 compiler and cuda.h (CUDA_HOME, default /usr/local/cuda);
# not libcuda (loaded at run time). Usage: sh build.sh OUTPUT.so
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
${CXX:-c++} -O2 -std=c++17 -shared -fPIC -I"$cuda/include" -I"$here" \
  "$here/Dispatch.cpp" "$here/CudaDriver.cpp" -ldl -o "$1"
