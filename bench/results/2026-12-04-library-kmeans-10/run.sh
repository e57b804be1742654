#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here. "# here:" lines ran on
# this machine and are not for re-running as written (inputs only that session had).
R=bench/results/2026-12-04-library-kmeans-10
# Build 10 (no programmatic launch; build.py's default since then applies it):
# here: python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2 --no-programmatic-launch
# here: agent/cake library export --library .device/klib --out .device/kpkg
# here: python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-tune --only .device/ws/w2x1.json
# Call 1 (the shapes of w2x1.json: tuned shapes where a w2 configuration without an _i32 time is within 1.3x of the best):
# gpu: LIB=.device/kpkg-tune/cake_library/library ONLY=.device/ws/w2x1.json TAG=w2x1 bash bench/library/run_h200.sh tune 0 0
# here: python3 bench/library/merge_tune.py --out libraries/kmeans/table.json libraries/kmeans/table.json $R/tune-w2x1-0.json
# here: python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-final
# Call 2: bash $R/call2.sh  (final, first 210 shapes, build 10)
# Call 3b: nvcc -O2 -arch=sm_90a -cudart static -o pdl $R/pdl.cu here; gpu: ./pdl
# Build 10b: the tactic then also inserted launch_dependents at the kernel's start; build.py, export, prune as above.
# Call 4: bash $R/call4.sh  (final first half and lloyd 0-20, build 10b)
# Call 6: bash $R/call6.sh  (.device/pdl-alt: each routed kernel of .device/ws/pdl_ab.json compiled
#         without the ops, with the signal only, with the wait only: grep -v on its .mlir, cake-translate)
# Build 10c (the tactic as committed): python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2, export, prune_package.py
# Call 7: bash $R/call7.sh  (the final over 420 shapes)
cp $R/final-wait-0.json $R/rows.json
python3 bench/library/rows_table.py $R/rows.json --before bench/results/2026-12-04-library-kmeans-9/rows.json
