#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines run on the GPU machine through the device tool; "# here:" lines on this machine.
R=bench/results/2026-12-06-library-kmeans-17
# here: python3 bench/library/merge_tune.py --out libraries/kmeans/table.json libraries/kmeans/table.json \
#         bench/results/2026-12-05-library-kmeans-16/tune-cs2-0.json bench/results/2026-12-05-library-kmeans-16/tune-pf-0.json
# here: python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2 --keep-built
#         (the simt sk and tcd kw kernels added to the plan); cp .device/klib/variants.json libraries/kmeans/
python3 $R/split_plan.py
# here: agent/cake library export --library .device/klib --out .device/kpkg
#   python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-split --grid $R/split-grid.json --only $R/split-only.json
#   (cd .device && tar czf call-split.tgz kpkg-split)
# gpu: bash $R/call1.sh   (carry .device/call-split.tgz, .device/wheels) -> tune-split-0.*
# here: python3 bench/library/merge_tune.py --out libraries/kmeans/table.json libraries/kmeans/table.json $R/tune-split-0.json
#   python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2 --keep-built
python3 bench/library/route_cv.py --library .device/klib
# here: agent/cake library export --library .device/klib --out .device/kpkg
#   python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-b17; (cd .device && tar czf call-b17.tgz kpkg-b17)
# gpu: bash $R/call2.sh   (carry .device/call-b17.tgz, .device/wheels) -> final-b17-0.*
python3 $R/split_summary.py       # README "Call 1"
python3 bench/library/rows_table.py $R/final-b17-0.json --before bench/results/2026-12-05-library-kmeans-14/rows.json > $R/rows-table-b17.md
python3 $R/compare.py             # README "Call 2"
