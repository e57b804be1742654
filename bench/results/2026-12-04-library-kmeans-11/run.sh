#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here. "# here:" lines ran on
# this machine and are not for re-running as written (inputs only that session had).
R=bench/results/2026-12-04-library-kmeans-11
# Build 11a (fl in the plan; since then behind --flat-tcd):
# here: python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2 --flat-tcd
# here: python3 $R/finalists_fl.py .device/klib/library.json libraries/kmeans/table.json .device/ws/fl.json; agent/cake library export --library .device/klib --out .device/kpkg
# here: python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-tune --only .device/ws/fl.json
# Call 1: bash $R/call1.sh (fl with a masked load per vector); call 2: bash $R/call2.sh (one bounds test per step)
# Build 11 (hx): python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2
# here: python3 $R/finalists_hx.py .device/klib/library.json libraries/kmeans/table.json .device/ws/hx.json
# here: export and prune to .device/kpkg-tune --only .device/ws/hx.json
# Call 3: bash $R/call3.sh
# here: python3 bench/library/merge_tune.py --out libraries/kmeans/table.json libraries/kmeans/table.json $R/tune-hx-0.json
# here: build.py again (the table), export, prune_package.py --package .device/kpkg --out .device/kpkg-final
# Call 4: bash $R/call4.sh  (the final over 420 shapes, build 11)
# Build 11b (the width-group router in route.py and the dispatcher): export; .device/ws/heldout.json
#   lists the grid's held-out shapes with the configuration the router gives each; prune to it.
# Call 5: bash $R/call5.sh  (the final over the 84 held-out shapes, build 11b)
cp $R/final-hx-0.json $R/rows.json
cp $R/final-heldout-0.json $R/rows-heldout.json
python3 bench/library/rows_table.py $R/rows.json --before bench/results/2026-12-04-library-kmeans-10/rows.json
python3 bench/library/route_cv.py --library .device/klib
# Call 6: bash $R/call6.sh (ncu over bench/library/profile_shapes.py; .device/ws/profile.json: the
#   seven shapes listed in PREDICTION.md with their routed configuration; package pruned to them)
# Build 11c (families/pad.py: 16 bytes per thread): build.py, export; .device/ws/staged.json: the
#   grid shapes whose route stages (sizes D != D or KP != K), with their configuration; prune to it.
# Call 7: bash $R/call7.sh
cp $R/final-pad16-0.json $R/rows-staged.json
