#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here. "# here:" lines ran on
# this machine.
R=bench/results/2026-12-04-library-kmeans-12
# Build 12a (pad fix): python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2
# here: agent/cake library export --library .device/klib --out .device/kpkg
# here: python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-final --only $R/padcheck-shapes.json
# gpu: bash $R/call1.sh
# Build 12b (cpw, masked copies), tune-cpw-shapes.json: the 101 cpw-legal shapes >= 8 us; export, prune to it
# gpu: bash $R/call2.sh   (outputs renamed tune-cpw-masked-0.*)
# Build 12c (cpw with flat offsets and `if`); export, prune as before
# gpu: bash $R/call3.sh
# here: python3 bench/library/merge_tune.py --out libraries/kmeans/table.json libraries/kmeans/table.json $R/tune-cpw-0.json
# tune-cpw2-shapes.json: the other tuned shapes cpw can serve; build, export, prune to it
# gpu: bash $R/call4.sh
# here: python3 bench/library/merge_tune.py --out libraries/kmeans/table.json libraries/kmeans/table.json $R/tune-cpw2-0.json
# here: build.py (the table), export, prune_package.py --package .device/kpkg --out .device/kpkg-final
# gpu: bash $R/call5.sh
cp $R/final-b12-0.json $R/rows.json
python3 bench/library/rows_table.py $R/rows.json --before bench/results/2026-12-04-library-kmeans-11/rows.json > $R/rows-table.md
python3 bench/library/route_cv.py --library .device/klib
# Build 12d (cpw: wgmma.wait 1); tune-cpw3-shapes.json: the 63 shapes where cpw's best was within
# 1.3x of the table's best; export, prune to it
# gpu: bash $R/call6.sh
# here (then reverted, see README): merge_tune.py ... $R/tune-cpw3-0.json; build.py; the 33 shapes
#   whose route differs from call 5's or runs cpw -> $R/changed-shapes.json; export, prune to it
# gpu: bash $R/call7.sh
