#!/bin/bash
# Call 4 (device tool, carrying .device/kpkg-final and .device/wheels): the cpw configurations on
# the other 101 tuned shapes cpw can serve (tune-cpw2-shapes.json: those under 8 us in calls 4-5).
# Package: as call 3 (table.json with call 3 merged), pruned to tune-cpw2-shapes.json.
LIB=.device/kpkg-final/cake_library/library ONLY=bench/results/2026-12-04-library-kmeans-12/tune-cpw2-shapes.json TAG=cpw2 timeout 480 bash bench/library/run_h200.sh tune 0 0
