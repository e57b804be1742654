#!/usr/bin/env bash
# Installs what CAKE needs and is missing (Debian 12): LLVM/MLIR 22, clang-22, lld, ninja, cmake,
# GoogleTest, pybind11 and the Python headers (for the Python bindings), pip and the optional Python
# packages ray (the harness's ray backend) and scipy (cake calibrate's fit). The CUDA toolkit (for
# ptxas, cake-run and the reference kernels) is expected at $CUDA_HOME (default /usr/local/cuda);
# without it the build skips those parts and says so.
set -euo pipefail

packages=(llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22 ninja-build cmake
          libgtest-dev libgmock-dev python3 python3-dev python3-pip pybind11-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
else
  echo "setup: all packages present"
fi

# Optional Python packages (the harness runs without them; their tests skip without them). A
# python3 of its own (pyenv, venv) installs them as is; Debian's own python3 refuses without
# --break-system-packages.
optional_python_package() { # MODULE REQUIREMENT WHAT
  if python3 -c "import $1" 2>/dev/null; then
    echo "setup: python package $1 present ($(python3 -c "import $1; print($1.__version__)"))"
  else
    echo "setup: installing the python package $1 ($3)"
    python3 -m pip install -q "$2" 2>/dev/null || python3 -m pip install -q --break-system-packages "$2"
  fi
}
# ray: the harness's ray backend (docs/Harness.md; agent/tests/test_ray_backend.py).
optional_python_package ray "ray>=2.9" "optional ray backend; its tests need it"
# scipy: cake calibrate's fit and rank statistics (docs/CostModel.md; agent/tests/test_calibrate.py
# compares them with the standard-library fallback).
optional_python_package scipy "scipy" "optional: cake calibrate's fit; its tests compare it with the fallback"

cuda_home=${CUDA_HOME:-/usr/local/cuda}
if [[ -x $cuda_home/bin/ptxas ]]; then
  echo "setup: CUDA toolkit at $cuda_home ($("$cuda_home/bin/ptxas" --version | tail -1))"
else
  echo "setup: no CUDA toolkit at $cuda_home: cubins, cake-run and the reference kernels are skipped"
fi
