#!/bin/sh
# Builds libcake_library.so from this folder (Dispatch.cpp, the generated LibraryTable.inc and
# cake-run's driver loader): needs a C++17 compiler and cuda.h (CUDA_HOME, default /usr/local/cuda);
# not libcuda (loaded at run time). Usage: sh build.sh OUTPUT.so
# Then, where a C compiler and CPython >= 3.10's headers are here ($PYTHON, default python3), the
# module _cake_native.abi3.so beside it (PyEntry.c: the CPython entry points, bound to OUTPUT.so's
# functions at load); without them the package calls OUTPUT.so through ctypes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
${CXX:-c++} -O2 -std=c++17 -shared -fPIC -I"$cuda/include" -I"$here" \
  "$here/Dispatch.cpp" "$here/CudaDriver.cpp" -ldl -o "$1"
dir=$(cd "$(dirname "$1")" && pwd)
include=$(${PYTHON:-python3} -c 'import sys, sysconfig
if sys.version_info >= (3, 10): print(sysconfig.get_paths()["include"])' 2>/dev/null || true)
if [ -n "$include" ] && [ -f "$include/Python.h" ] && command -v "${CC:-cc}" >/dev/null; then
  ${CC:-cc} -O2 -shared -fPIC -I"$include" "$here/PyEntry.c" -o "$dir/_cake_native.abi3.so"
else
  echo "build.sh: no C compiler or no CPython >= 3.10 headers: _cake_native not built (ctypes is used)"
fi
