#!/bin/bash
# Prepares .device/kda-anchors on the build machine (network: the `fetch` mirrors and PyPI):
#   bash bench/kda/prepare_anchors.sh FLASHKDA_GIT_DIR CUTLASS_GIT_DIR
# FLASHKDA_GIT_DIR / CUTLASS_GIT_DIR: bare git directories of MoonshotAI/FlashKDA and NVIDIA/cutlass
# (the `fetch` tool's /work/.mirror/<owner>+<name>/repo). Exports FlashKDA's HEAD, the three cutlass
# folders it includes at the commit its submodule pins, downloads the fla-core 0.6.0 and einops
# wheels, and copies anchors_build.sh as build.sh (run there by bench/kda/run_h200.sh). ~32 MB,
# within the device tool's 64 MiB carry. Never commit what it writes: fetched code stays outside git.
set -euo pipefail
FK_GIT=$1; CUT_GIT=$2
DEST=.device/kda-anchors
rm -rf "$DEST" && mkdir -p "$DEST/FlashKDA" "$DEST/wheels"
git --git-dir="$FK_GIT" archive HEAD | tar -x -C "$DEST/FlashKDA"
PIN=$(git --git-dir="$FK_GIT" ls-tree HEAD cutlass | awk '{print $3}')
echo "FlashKDA $(git --git-dir="$FK_GIT" rev-parse --short HEAD), cutlass pinned at $PIN"
mkdir -p "$DEST/FlashKDA/cutlass"
git --git-dir="$CUT_GIT" archive "$PIN" include tools/util/include examples/common | tar -x -C "$DEST/FlashKDA/cutlass"
pip download -q --no-deps -d "$DEST/wheels" fla-core==0.6.0 einops
cp bench/kda/anchors_build.sh "$DEST/build.sh"
du -sh "$DEST"
