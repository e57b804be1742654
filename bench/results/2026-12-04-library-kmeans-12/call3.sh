#!/bin/bash
# Call 3 (device tool, carrying .device/kpkg-final and .device/wheels): call 2 again with the cpw
# kernels rebuilt: x and c as flat arrays, rows clamped, one `if` column test per thread and stage
# (cake.cp_async's new predicate) instead of `masked` on every copy.
# Package: build.py --out .device/klib; cake library export; prune_package.py --only tune-cpw-shapes.json.
LIB=.device/kpkg-final/cake_library/library ONLY=bench/results/2026-12-04-library-kmeans-12/tune-cpw-shapes.json TAG=cpw timeout 480 bash bench/library/run_h200.sh tune 0 0
