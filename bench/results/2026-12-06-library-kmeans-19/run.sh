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
python3 - <<'PY'
import json
R = "bench/results/2026-12-06-library-kmeans-19"
a, b = json.load(open(f"{R}/final-b19-0.json")), json.load(open(f"{R}/final-b19-380.json"))
for call, rows in ((2, a), (3, b)):
    for r in rows:
        r["call"] = call
json.dump(a + b, open(f"{R}/rows.json", "w"), indent=0)
PY
python3 bench/library/rows_table.py $R/rows.json --before bench/results/2026-12-06-library-kmeans-18/rows.json > $R/rows-table.md
python3 bench/library/heldout_gap.py $R/rows.json
