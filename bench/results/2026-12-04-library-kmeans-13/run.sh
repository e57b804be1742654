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
# Session 31 (the device tool gave an H100):
# gpu: bash $R/call1.sh; bash $R/call2.sh   (one command; only the A/B's 8 files came back)
python3 - $R <<'PY'   # the A/B: per (shape, configuration), old / new over the two rounds
import json, math, sys
d = sys.argv[1]
t = {k: {(p["dtype"], p["B"], p["N"], p["D"], p["K"]): p["ms"] for p in json.load(open(f"{d}/tune-{k}-0.json"))["points"]}
     for k in ("ab-old1", "ab-old2", "ab-new1", "ab-new2")}
r = [math.sqrt(t["ab-old1"][s][c] * t["ab-old2"][s][c] / (t["ab-new1"][s][c] * t["ab-new2"][s][c]))
     for s in t["ab-old1"] for c in t["ab-old1"][s]]
print(f"{len(r)} pairs: old / new geomean {math.exp(sum(map(math.log, r)) / len(r)):.4f}, "
      f"> 1.03: {sum(x > 1.03 for x in r)}, < 0.97: {sum(x < 0.97 for x in r)}")
PY
# here: build.py defaults to the trimmed classes; variants.json from .device/klib/library.json
# here: .device/klib/library.json's table = libraries/kmeans/table.json (its copy had "neighbours": 4)
# here: agent/cake library export --library .device/klib --out .device/kpkg
# here: python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-final
# gpu: bash $R/call3.sh      (carry .device/kpkg-final, .device/wheels)
# gpu: bash $R/call4.sh      (carry .device/call1.tgz, .device/wheels; an H200) -- prepared
# Session 32 (no GPU: 417 s of device time left, under what a machine start needs):
# here: python3 bench/library/heldout_gap.py ../2026-12-04-library-kmeans-12/rows.json
# here: python3 bench/library/probe_routing.py prepare --library .device/klib --table libraries/kmeans/table.json \
#         --count 40 --top 12 --grid-out $R/probe-grid.json --only-out $R/probe-only.json
# here: python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-probe \
#         --grid $R/probe-grid.json --only $R/probe-only.json
# here: cp -r .device/kpkg-final .device/kpkg-call5 && cp -n .device/kpkg-probe/cake_library/library/kernels/*.cubin \
#         .device/kpkg-call5/cake_library/library/kernels/
# Session 33:
# here: (cd .device && tar czf call5.tgz kpkg-call5)
# gpu: PROBE_S=220 FINAL_S=330 bash $R/call5.sh   (carry .device/call5.tgz, .device/wheels; H200) -> tune-probe-0.*, final-b13-0.*
# here: python3 bench/library/probe_routing.py score --library .device/klib --table libraries/kmeans/table.json --tune $R/tune-probe-0.json
# gpu: FINAL_S=170 bash $R/call6.sh   (carry .device/call5.tgz, .device/call1.tgz, .device/wheels; H100)
#        -> final-b13-305.*, call4.tgz (tune-retime-0.*, tune-sweep-below-0.* renamed *-h100-0.*)
# here: python3 bench/library/rows_table.py $R/final-b13-0.json --before bench/results/2026-12-04-library-kmeans-12/rows.json > $R/rows-table-h200-305.md
# here: python3 bench/library/rows_table.py $R/final-b13-305.json > $R/rows-table-h100-115.md
# here: python3 $R/router_variants.py   (README "Router variants"; ~20 min on 2 cores)
# here: python3 $R/retime_vs_table.py   (README: the H100 re-time against the H200 table)
