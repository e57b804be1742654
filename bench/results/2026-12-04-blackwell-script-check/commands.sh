#!/bin/bash
# Here (compile machine), from the repository root:
mkdir -p .device/bw-check/kernels
for k in hopper_gemm kmeans_hopper; do
  build/bin/cake-translate examples/$k.mlir --emit=cubin -o .device/bw-check/kernels/$k.cubin \
    --manifest .device/bw-check/kernels/$k.json
done
cp build/bin/cake-run .device/bw-check/
pip download --no-deps flash-kmeans==0.3.1 flashlib==0.4.0 -d .device/wheels
# On the H200 (device tool, carry .device/bw-check and .device/wheels):
mkdir -p $OUT/py && pip install --no-deps --target $OUT/py .device/wheels/*.whl -q
export PYTHONPATH=$OUT/py
python3 bench/blackwell/check_gemms.py --cake-run .device/bw-check/cake-run \
  --kernels .device/bw-check/kernels --kernel hopper_gemm:bfloat16 --json $OUT/gemm.json
python3 bench/kmeans_hopper.py --cake-run .device/bw-check/cake-run --kernels .device/bw-check/kernels \
  --kernel kmeans_hopper --fp16-only --flash-kmeans $OUT/py --flashlib $OUT/py --json $OUT/kmeans.json
