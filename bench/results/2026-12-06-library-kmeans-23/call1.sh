#!/bin/bash
# Call 1 (prepared in session 43, which had no device time; run it first in the next session):
# build 27 (build 26's kernels + the |c|^2 kernels), exported with the CPython entry points;
# session 44 rebuilt its _cake_native with assign_tensors (commit f85789f: the usual call from
# the tensors in one C call) and copied that runtime into the package (call-d2.tgz).
# (1) a call without c_sq (the dispatcher's |c|^2) on 40 grid shapes: correct against fp64,
#     agreement with the c_sq call, host and GPU time of both forms; (2) the bad-input contract;
# (3) host time, session 42's runtime (A, ctypes) against this one (B) in one process, both
#     forms; the breakdown with --steps, the whole call through ctypes (CAKE_LIBRARY_CTYPES=1)
#     and without programmatic launch (CAKE_PROGRAMMATIC_LAUNCH=0);
# (4) Lloyd on 60 grid shapes not measured yet (lloyd-sample5.json), as long as 130 s allow.
# At most ~570 s in all (the timeouts); run it with timeout_s 600.
# Carry: .device/call-d2.tgz, .device/wheels.
R=bench/results/2026-12-06-library-kmeans-23
L=.device/kpkg-d1/cake_library/library
rm -rf .device/kpkg-d1 .device/rt-s42 && tar xzf .device/call-d2.tgz -C .device
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
python3 --version >> $OUT/gpu.txt
timeout 120 python3 bench/library/csq_check.py --library $L --grid libraries/kmeans/grid.json --count 40 \
  > $OUT/csq.jsonl 2> $OUT/csq.err; echo "csq_check rc=$?" >> $OUT/gpu.txt
timeout 60 python3 bench/library/bad_input_check.py --library $L > $OUT/checks.log 2>&1; echo "bad_input rc=$?" >> $OUT/gpu.txt
timeout 90 python3 bench/library/host_ab.py --library $L --a .device/rt-s42/libraries/runtime \
  --b libraries/runtime --rounds 5 > $OUT/host.jsonl 2>> $OUT/checks.log
timeout 60 python3 bench/library/host_breakdown.py --library $L --steps >> $OUT/host.jsonl 2>> $OUT/checks.log
CAKE_LIBRARY_CTYPES=1 timeout 60 python3 bench/library/host_breakdown.py --library $L >> $OUT/host.jsonl 2>> $OUT/checks.log
# The driver's share: the same with every launch the ordinary way (cuLaunchKernel, no
# programmatic-launch attribute): does cuLaunchKernelEx cost host time?
CAKE_PROGRAMMATIC_LAUNCH=0 timeout 40 python3 bench/library/host_breakdown.py --library $L >> $OUT/host.jsonl 2>> $OUT/checks.log
tail -3 $OUT/gpu.txt; tail -4 $OUT/host.jsonl | cut -c1-300
CAKE_BENCH_PRIVATE=0 ONLY=$R/lloyd-sample5.json LIB=$L TAG=sample5 timeout 130 \
  bash bench/library/run_h200.sh lloyd 0 0 | tail -3
