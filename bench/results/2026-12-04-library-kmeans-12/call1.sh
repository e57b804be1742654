#!/bin/bash
# Call 1 (device tool, carrying .device/kpkg-final and .device/wheels): the final over 61 staged
# shapes (padcheck-shapes.json: the 40 fastest of call 7's staged rows, its 12 worst, its 8
# slowest, 10 with |c|^2 staged at K % 4 != 0), build 12 (|c|^2 loads clamped and issued together).
# Package: build.py --out .device/klib; cake library export; prune_package.py --only padcheck-shapes.json.
LIB=.device/kpkg-final/cake_library/library ONLY=bench/results/2026-12-04-library-kmeans-12/padcheck-shapes.json TAG=padq timeout 300 bash bench/library/run_h200.sh final 0 0
