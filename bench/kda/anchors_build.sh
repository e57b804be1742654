#!/usr/bin/env bash
# Build FlashKDA in place and install fla-core 0.6.0 into a private site dir (copied into
# .device/kda-anchors as build.sh by bench/kda/prepare_anchors.sh).
# Run from any cwd on the GPU machine (offline). Env overrides:
#   KDA_SITE (default /tmp/kda-site), FLASH_KDA_CUDA_ARCHS (default 90a),
#   MAX_JOBS (default 16), NVCC_THREADS (default 4), PYTHON (default python3).
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FK="$HERE/FlashKDA"
SITE="${KDA_SITE:-/tmp/kda-site}"
PY="${PYTHON:-python3}"
export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1
LOG="${KDA_BUILD_LOG:-/tmp/kda-build.log}"

die() { echo "build.sh: FAILED: $*" >&2; exit 1; }

# ---- preflight -------------------------------------------------------------
[ -f "$FK/setup.py" ] || die "missing $FK/setup.py"
for d in include tools/util/include examples/common; do
  [ -d "$FK/cutlass/$d" ] || die "missing cutlass dir $FK/cutlass/$d"
done
[ -f "$FK/cutlass/include/cute/tensor.hpp" ] || die "cutlass headers incomplete"
WHL="$(ls "$HERE"/wheels/fla_core-0.6.0-*.whl 2>/dev/null | head -1)"
[ -n "$WHL" ] || die "fla_core-0.6.0 wheel not found in $HERE/wheels"
if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
    export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
  else
    die "nvcc not found (set CUDA_HOME or PATH)"
  fi
fi
"$PY" -c "import torch, setuptools; assert torch.version.cuda, 'torch built without CUDA'" \
  || die "python3 cannot import torch (with CUDA) and setuptools"

# ---- (a) install fla-core wheel (and einops if missing) --------------------
echo "[a] installing $(basename "$WHL") -> $SITE"
mkdir -p "$SITE"
"$PY" -m pip install -q --no-deps --no-index --upgrade --target "$SITE" "$WHL" \
  || die "pip install of $WHL into $SITE"
if ! "$PY" -c "import einops" >/dev/null 2>&1; then
  EWHL="$(ls "$HERE"/wheels/einops-*.whl 2>/dev/null | head -1)"
  [ -n "$EWHL" ] || die "einops not importable and no einops wheel in $HERE/wheels"
  echo "[a] einops missing; installing $(basename "$EWHL") -> $SITE"
  "$PY" -m pip install -q --no-deps --no-index --upgrade --target "$SITE" "$EWHL" \
    || die "pip install of $EWHL"
fi

# ---- (b) build FlashKDA in place -------------------------------------------
# setup.py runs `git submodule update --init cutlass` unconditionally at import
# time (crashes if git is absent; inside an unrelated parent repo it would act
# on that repo) and `git rev-parse` for the version. Shadow git with a no-op stub
# and pin the version suffix so the exported tree (no .git) builds cleanly.
STUB="$(mktemp -d /tmp/kda-gitstub.XXXXXX)"
printf '#!/bin/sh\nexit 0\n' > "$STUB/git"; chmod +x "$STUB/git"
echo "[b] building FlashKDA in $FK (archs=${FLASH_KDA_CUDA_ARCHS:-90a}; log: $LOG)"
T0=$(date +%s)
( cd "$FK" && \
  PATH="$STUB:$PATH" \
  FLASH_KDA_CUDA_ARCHS="${FLASH_KDA_CUDA_ARCHS:-90a}" \
  FLASH_KDA_VERSION_SUFFIX="+anchor" \
  TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0a}" \
  MAX_JOBS="${MAX_JOBS:-16}" \
  NVCC_THREADS="${NVCC_THREADS:-4}" \
  "$PY" setup.py build_ext --inplace ) > "$LOG" 2>&1
RC=$?
rm -rf "$STUB"
if [ $RC -ne 0 ]; then
  grep -v '^ptxas info' "$LOG" | tail -60 >&2
  die "FlashKDA build (rc=$RC), full log in $LOG"
fi
SO="$(ls "$FK"/flash_kda_C*.so 2>/dev/null | head -1)"
[ -n "$SO" ] || { tail -40 "$LOG" >&2; die "build succeeded but no flash_kda_C*.so in $FK"; }
echo "[b] built $(basename "$SO") in $(( $(date +%s) - T0 ))s"

# ---- (c) import check -------------------------------------------------------
PYTHONPATH="$FK:$SITE${PYTHONPATH:+:$PYTHONPATH}" "$PY" - <<'EOF' || die "import check"
import torch, flash_kda, flash_kda_C, fla
from fla.ops.kda import chunk_kda
print(f"[c] OK: flash_kda={flash_kda.__file__} flash_kda_C={flash_kda_C.__file__} "
      f"fla={fla.__version__} chunk_kda={chunk_kda.__module__} torch={torch.__version__} "
      f"cuda={torch.version.cuda}")
EOF
echo "Use: export PYTHONPATH=$FK:$SITE\${PYTHONPATH:+:\$PYTHONPATH}"
