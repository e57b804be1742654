#!/bin/bash
# Session 41: the split-K finish inside the kernel (builds 22, 23) against the finish kernel
# (build 21), then the revert (build 24 = build 21's kernels). Here (CPU), per build:
set -e
R=bench/results/2026-12-06-library-kmeans-21
python3 bench/ir/last_block_check.py prepare --out .device/lbc          # the new ops' GPU check
python3 libraries/kmeans/build.py --out .device/klib --keep-built --jobs 2  # only changed IR compiles
rm -rf .device/kpkg && agent/cake library export --library .device/klib --out .device/kpkg
# build 22: the whole grid; build 23: the split-K shapes (.device/splitk-grid.json: the grid rows
# kmeans-20 call 2 served with split-K); build 24: lloyd-sample2.json + below1-small.json
python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-b22 --grid libraries/kmeans/grid.json
(cd .device && tar czf call-b22.tgz kpkg-b22)
# The old arm (build 21 with its finish kernel) runs under the runtime it was exported with:
git archive ac6994d libraries/runtime bench/library agent/cake_agent/expr.py | tar x -C .device/old
# GPU (device tool): bash $R/call1.sh (carry call-b21/b22.tgz, wheels, old, lbc, splitk-grid.json,
# build/bin/cake-run); bash $R/call3.sh (call-b21/b22/b23.tgz, wheels, old, splitk-grid.json);
# bash $R/call4.sh (call-b24.tgz, wheels; call 2, a Lloyd-only call, never started: its shapes
# went into call 4). Pairing: python3 $R/ab.py $R/call3-splitk-b21.json $R/call3-splitk-b23.json.
