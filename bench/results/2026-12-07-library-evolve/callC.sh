#!/bin/bash
# Call C (session 46): generation 0's three winners (libraries/kmeans/evolved.json) timed by the
# library's own timer (kmeans_bench tune: CUDA-graph replay, warm clock) at every table point of
# their buckets, beside each point's two best configurations (evolved-only.json), through the
# package of those kernels (.device/kpkg-c: build.py --subset of needed_variants.py's list).
# Carry: .device/kpkg-c, .device/wheels.
R=bench/results/2026-12-07-library-evolve
LIB=.device/kpkg-c/cake_library/library ONLY=$R/evolved-only.json TAG=evolved timeout 150 \
  bash bench/library/run_h200.sh tune 0 0
