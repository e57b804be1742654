#!/bin/bash
# Call 7 (device tool, carrying .device/kpkg-final and .device/wheels): the final of build 12d over
# the 33 shapes whose routed kernel differs from call 5's or is a cpw kernel (changed-shapes.json).
# Package: build.py (table with call 6 merged), export, prune_package.py --only changed-shapes.json.
LIB=.device/kpkg-final/cake_library/library ONLY=bench/results/2026-12-04-library-kmeans-12/changed-shapes.json TAG=b12d timeout 200 bash bench/library/run_h200.sh final 0 0
