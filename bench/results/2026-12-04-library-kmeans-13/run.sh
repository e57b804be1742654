#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines run on the GPU machine through the device tool; "# here:" lines on this machine.
R=bench/results/2026-12-04-library-kmeans-13
# here: python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2 --tails
# here: mkdir -p .device/klib-old; ln -sfn ../klib/kernels .device/klib-old/kernels
# here: library.json without the variants whose params have "tail" -> .device/klib-old/library.json
# here: agent/cake library export --library .device/klib --out .device/kpkg
# here: agent/cake library export --library .device/klib-old --out .device/kpkg-old
# here: python3 bench/library/retime_list.py --table libraries/kmeans/table.json \
#         --also bench/results/2026-12-04-library-kmeans-12/tune-cpw3-0.json --out $R/retime-shapes.json
# here: ab-shapes.json = the grid shapes whose routed kernel differs between the two libraries
# here: python3 bench/library/prune_package.py --package .device/kpkg-old --out .device/kpkg-ab-old --only $R/ab-shapes.json
# here: python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-new --only <retime + ab + sweep-below>
# here: (cd .device && tar czf call1.tgz kpkg-new kpkg-ab-old)
# gpu: bash $R/call1.sh      (carry .device/call1.tgz, .device/wheels) -- not run in sessions 28-29
# gpu: bash $R/call2.sh      (the same carry; session 29) -- not run
