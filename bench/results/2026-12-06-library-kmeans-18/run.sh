#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines run on the GPU machine through the device tool; "# here:" lines on this machine.
R=bench/results/2026-12-06-library-kmeans-18
# here: PYTHONPATH=libraries/runtime python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2 --keep-built
#   agent/cake library export --library .device/klib --out .device/kpkg
#   python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-b17; (cd .device && tar czf call-b17.tgz kpkg-b17)
# gpu: bash $R/call1.sh   (carry .device/call-b17.tgz, .device/wheels; timeout_s 600) -> final-b17-0.*
# (rows.json was call 1's until call 5 ran: below)
# here: build 18: the wgmma ra variants (build.py --keep-built; cp .device/klib/variants.json libraries/kmeans/)
# here: python3 $R/ra_plan.py   (with the table of 2b62d3c and variants.json with ra)
# here: agent/cake library export --library .device/klib --out .device/kpkg
#   python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-ra --grid $R/ra-grid.json --only $R/ra-only.json
#   (cd .device && tar czf call-ra.tgz kpkg-ra)
# gpu: bash $R/call2.sh   (carry .device/call-ra.tgz, .device/wheels) -> tune-ra-0.*
# here: git show 2b62d3c:libraries/kmeans/table.json > /tmp/t0.json
#   python3 bench/library/merge_tune.py --out libraries/kmeans/table.json /tmp/t0.json $R/tune-ra-0.json   (rescaling)
#   build.py --keep-built; changed-grid.json = the grid shapes whose route differs from build 17's library.json
#   prune_package.py --package .device/kpkg --out .device/kpkg-b18 --grid $R/b18-grid.json; tar czf call-b18.tgz kpkg-b18
# gpu: bash $R/call3.sh   (carry .device/call-b17.tgz, .device/call-b18.tgz, .device/wheels) -> final-changed-b17-0.*, final-b18-0.*
# here: build.py --keep-built --ov (the ov experiment); cp variants.json
# here: python3 $R/ov_plan.py   (with variants.json built with --ov)
#   prune_package.py --package .device/kpkg --out .device/kpkg-ov --grid $R/ov-grid.json --only $R/ov-only.json; tar czf call-ov.tgz kpkg-ov
# gpu: bash $R/call4.sh   (carry .device/call-ov.tgz, .device/wheels) -> tune-ov-0.*
# here: build 18 as committed (build.py --keep-built), export, prune_package.py --out .device/kpkg-b18f; tar czf call-b18f.tgz kpkg-b18f
# gpu: bash $R/call5.sh   (carry .device/call-b18f.tgz, .device/wheels) -> final-b18-0.* (saved here as final-b18full-0.*)
cp $R/final-b18full-0.json $R/rows.json
python3 bench/library/rows_table.py $R/rows.json --before bench/results/2026-12-05-library-kmeans-14/rows.json > $R/rows-table.md
python3 bench/library/rows_table.py $R/final-b17-0.json --before bench/results/2026-12-05-library-kmeans-14/rows.json > $R/rows-table-b17.md
python3 bench/library/heldout_gap.py $R/rows.json
