#!/bin/bash
# Sessions 43-44: the CPython entry points, |c|^2 in the dispatcher, assign_tensors. Here (CPU):
set -e
R=bench/results/2026-12-06-library-kmeans-23
python3 libraries/kmeans/build.py --out .device/klib --keep-built --jobs 2   # build 27 (+ csq kernels)
rm -rf .device/kpkg && agent/cake library export --library .device/klib --out .device/kpkg
# The dispatcher's host cost on the CPU against the fake driver (cpu-dispatch.jsonl):
mkdir -p /tmp/fake && cc -O2 -shared -fPIC -I${CUDA_HOME:-/usr/local/cuda}/include \
  agent/tests/data/fake_libcuda.c -o /tmp/fake/libcuda.so.1
LD_LIBRARY_PATH=/tmp/fake python3 bench/library/dispatch_host_cpu.py .device/kpkg/cake_library/library \
  --rounds 9 --calls 20000 > $R/cpu-dispatch.jsonl
cc -O2 bench/library/dispatch_loop.c -o /tmp/dispatch_loop -ldl
LD_LIBRARY_PATH=/tmp/fake /tmp/dispatch_loop .device/kpkg/cake_library/library/libcake_library.so \
  .device/kpkg/cake_library/library/kernels > $R/cpu-dispatch-loop.txt
# Call 1's package (call1-prune.json: csq_check's 40 shapes, the host and bad-input shapes,
# lloyd-sample5.json) and the A arm of the host-time comparison (session 42's runtime):
rm -rf .device/kpkg-d1 .device/rt-s42
python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-d1 --grid $R/call1-prune.json
mkdir -p .device/rt-s42 && git archive 62f6856 libraries/runtime agent/cake_agent/expr.py | tar x -C .device/rt-s42
(cd .device && tar czf call-d1.tgz kpkg-d1 rt-s42)
# GPU (device tool): bash $R/call1.sh (carry .device/call-d1.tgz, .device/wheels)
# Session 44: PyEntry.c's assign_tensors (commit f85789f) rebuilt into call 1's package
# (call-d2.tgz), then build 28 (the |c|^2 kernels with 1 and 4 lanes per row) for call 2:
inc=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
cp libraries/runtime/cake_library/*.py .device/kpkg-d1/cake_library/
cc -O2 -shared -fPIC -I"$inc" libraries/runtime/dispatch/PyEntry.c -o .device/kpkg-d1/cake_library/library/_cake_native.abi3.so
(cd .device && tar czf call-d2.tgz kpkg-d1 rt-s42)
python3 libraries/kmeans/build.py --out .device/klib --keep-built --jobs 2   # build 28
rm -rf .device/kpkg .device/kpkg-d3 && agent/cake library export --library .device/klib --out .device/kpkg
python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-d3 --grid $R/call2-prune.json
(cd .device && tar czf call-d3.tgz kpkg-d3)
# GPU (device tool): bash $R/call1.sh (carry call-d2.tgz, wheels); bash $R/call2.sh (carry call-d3.tgz, wheels)
