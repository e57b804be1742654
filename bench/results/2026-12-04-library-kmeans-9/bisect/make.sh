#!/usr/bin/env bash
# How the bisect cubins of calls 5-7 were made (README, "A ptxas miscompile"), from the
# repository root with a build of commit 476629c (before the workaround) and the CUDA toolkit.
set -eu
K=km_bf16_c7_k64_w2_x1_s2_p; L=/usr/lib/llvm-22/bin; P=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
W=$(mktemp -d); OUT=${1:-.device/bis2}; mkdir -p "$OUT"
python3 -c "import sys; sys.path.insert(0, 'libraries/kmeans'); import build; print(build.generate({'dtype': 'bfloat16', 'chunks': 7, 'bk': 64, 'wg': 2, 'xs': 1, 'cs': 2, 'grid': 'persistent'}))" > $W/k.mlir
build/bin/cake-translate $W/k.mlir --emit=llvm --index-bitwidth=32 -o $W/k.ll
$L/llvm-link --only-needed $W/k.ll ${CUDA_HOME:-/usr/local/cuda}/nvvm/libdevice/libdevice.10.bc -o $W/linked.bc
$L/opt -O3 $W/linked.bc -o $W/t.bc
for n in 21 22 24 26 28 29 30 31 32 33 34 35 36 37 38 39; do
  $L/llc -O3 -opt-bisect-limit=$n -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 $W/t.bc -o $W/l$n.ptx
  $P -arch=sm_90a $W/l$n.ptx -o "$OUT/l$n.cubin"
done
# pa.ptx / pb.ptx: l38.ptx with its one `mul.wide.u32 %rd67, %r13, 8;` replaced (see the files).
