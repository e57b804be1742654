#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines run on the GPU machine through the device tool; "# here:" lines on this machine.
R=bench/results/2026-12-05-library-kmeans-16
# here (build 16, at b6f8b09 in a worktree): python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2
#   agent/cake library export --library .device/klib --out .device/kpkg
#   python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-b16; (cd .device && tar czf call-b16.tgz kpkg-b16)
# gpu: bash bench/results/2026-12-05-library-kmeans-15/call2.sh   (carry .device/call-b16.tgz, .device/wheels) -> final-b16-0.*
python3 $R/cs_plan.py
python3 $R/pf_plan.py
# here: python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2 --keep-built
#   agent/cake library export --library .device/klib --out .device/kpkg
#   python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-cs2 --grid $R/cs-grid.json --only $R/cs-only.json
#   python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-pf --grid $R/pf-grid.json --only $R/pf-only.json
#   (cd .device && tar czf call-cs2.tgz kpkg-cs2 kpkg-pf)
# gpu: bash $R/call2.sh   (carry .device/call-cs2.tgz, .device/wheels) -> tune-cs2-0.*, tune-pf-0.*
python3 $R/tune_summary.py   # README "Call 2": over tune-cs2-0.json, tune-pf-0.json and the table
