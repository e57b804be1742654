#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines run on the GPU machine through the device tool; "# here:" lines on this machine.
R=bench/results/2026-12-06-library-kmeans-18
# here: PYTHONPATH=libraries/runtime python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2 --keep-built
#   agent/cake library export --library .device/klib --out .device/kpkg
#   python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-b17; (cd .device && tar czf call-b17.tgz kpkg-b17)
# gpu: bash $R/call1.sh   (carry .device/call-b17.tgz, .device/wheels; timeout_s 600) -> final-b17-0.*
cp $R/final-b17-0.json $R/rows.json
python3 bench/library/rows_table.py $R/rows.json --before bench/results/2026-12-05-library-kmeans-14/rows.json > $R/rows-table.md
python3 bench/library/heldout_gap.py $R/rows.json
