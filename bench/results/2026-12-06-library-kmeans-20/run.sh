#!/bin/bash
# Session 40: first-call autotuning over build 20's kernels (bench/results/2026-12-06-library-kmeans-20).
# Here (CPU): the fresh probe shapes and the pruned package the calls carry.
set -e
R=bench/results/2026-12-06-library-kmeans-20
python3 bench/library/probe_routing.py prepare --library .device/klib --count 60 --seed 9001 --top 4 \
  --grid-out /tmp/probe-grid.json --only-out /tmp/probe-only.json
python3 - <<'PY'
import json
g = json.load(open('/tmp/probe-grid.json'))
for s in g['shapes']:
    s['heldout'] = True
g['note'] = 'fresh shapes (probe_routing.py prepare --seed 9001 --count 60): in no grid or table; marked heldout (never tuned)'
json.dump(g, open('bench/results/2026-12-06-library-kmeans-20/probe-grid.json', 'w'), indent=0)
a = json.load(open('libraries/kmeans/grid.json'))['shapes']
json.dump({"shapes": a + g['shapes']}, open('/tmp/both-grid.json', 'w'))
PY
agent/cake library export --library .device/klib --out .device/kpkg      # build 20 (session 39)
python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-b21 --grid /tmp/both-grid.json
(cd .device && tar czf call-b21.tgz kpkg-b21)
# GPU (device tool, carry .device/call-b21.tgz and .device/wheels):
#   bash $R/call1.sh ; bash $R/call2.sh
# Leave-one-out on the CPU:
python3 bench/library/route_cv.py --library .device/klib --candidates 4
