#!/bin/bash
# Call 5 (device tool, carrying .device/kpkg-final and .device/wheels): the final of build 12 (the
# shipped library: the pad fix of call 1, the cpw family with calls 3-4 merged into table.json)
# over all 420 grid shapes, flashlib and flash-kmeans measured in the same process.
# Package: build.py --out .device/klib; cake library export --out .device/kpkg;
# prune_package.py --package .device/kpkg --out .device/kpkg-final (the routed kernels only).
LIB=.device/kpkg-final/cake_library/library TAG=b12 timeout 570 bash bench/library/run_h200.sh final 0 0
