#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines run on the GPU machine through the device tool; "# here:" lines on this machine.
R=bench/results/2026-12-06-library-kmeans-19
# here: PYTHONPATH=libraries/runtime python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2 --keep-built
#   cp .device/klib/variants.json libraries/kmeans/
#   python3 $R/split_plan.py    (with build 18's table.json)
#   agent/cake library export --library .device/klib --out .device/kpkg
#   python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-sk2 --grid $R/split-grid.json --only $R/split-only.json
#   (cd .device && tar czf call-sk2.tgz kpkg-sk2)
# gpu: bash $R/call1.sh   (carry .device/call-sk2.tgz, .device/wheels) -> tune-split-0.*
# here: python3 bench/library/merge_tune.py --out libraries/kmeans/table.json <build 18's table.json> $R/tune-split-0.json
#   build.py --keep-built; python3 bench/library/route_cv.py --library .device/klib
#   export; prune_package.py --package .device/kpkg --out .device/kpkg-b19; (cd .device && tar czf call-b19.tgz kpkg-b19)
# gpu: bash $R/call2.sh   (carry .device/call-b19.tgz, .device/wheels; timeout_s 600) -> final-b19-0.*
# gpu: bash $R/call3.sh   (the same carry) -> final-b19-380.*
# here: build 20: SPLIT_K_CONFIGS + k32_ks1, SPLITD + k64_ks1 (build.py --keep-built; cp variants.json)
#   python3 $R/split_plan.py --only-configs k32_w1_t_ks1,sd1_k64_w1_t_ks1,sd2_k64_w1_t_ks1 --top 3 --tag split2
#   export; prune_package.py --package .device/kpkg --out .device/kpkg-sk3 --grid $R/split2-grid.json --only $R/split2-only.json
# gpu: bash $R/call4.sh   (carry .device/call-sk3.tgz, .device/wheels) -> tune-split2-0.*
# here: merge_tune.py --out libraries/kmeans/table.json <build 19's table.json> $R/tune-split2-0.json; build.py --keep-built
#   export; prune_package.py --package .device/kpkg --out .device/kpkg-b20; (cd .device && tar czf call-b20.tgz kpkg-b20)
# gpu: bash $R/call5.sh   (carry .device/call-b20.tgz, .device/wheels) -> final-b20-0.*
# gpu: bash $R/call6.sh   (carry .device/call-b19.tgz, .device/call-b20.tgz, .device/wheels) -> final-b19-c6-0.*, final-b20-c6-0.*
cp $R/final-b20-c6-0.json $R/rows.json
python3 bench/library/rows_table.py $R/rows.json --before bench/results/2026-12-06-library-kmeans-18/rows.json > $R/rows-table.md
python3 bench/library/rows_table.py $R/final-b19-c6-0.json --before bench/results/2026-12-06-library-kmeans-18/rows.json > $R/rows-table-b19-c6.md
python3 bench/library/heldout_gap.py $R/rows.json
