#!/bin/bash
# Call 3 (device tool, carrying .device/kpkg-final and .device/wheels; session 31): the final of
# build 13 (trimmed D classes on, the committed table, NEIGHBOURS = 8) over all 420 grid shapes,
# flashlib and flash-kmeans measured in the same process.
# Package: .device/klib (build.py --tails) with table.json as its table; cake library export --out
# .device/kpkg; prune_package.py --package .device/kpkg --out .device/kpkg-final (277 cubins, 31 MB).
nvidia-smi -L
LIB=.device/kpkg-final/cake_library/library TAG=b13 timeout ${FINAL_S:-480} bash bench/library/run_h200.sh final 0 0
# Session 31 had ~400 s of device time left: FINAL_S=300 stopped the final after 300 s; the grid's order is
# mixed (sizes, dtypes, held-out shapes), so the rows it reaches are a sample of the whole grid.
