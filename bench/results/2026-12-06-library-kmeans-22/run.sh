#!/bin/bash
# Session 42: the Python API's host time, tcd `sub1` and the wide resident-centroid classes, ncu
# of the large rows near 1.0x, Lloyd on more grid shapes. Here (CPU):
set -e
R=bench/results/2026-12-06-library-kmeans-22
python3 libraries/kmeans/build.py --out .device/klib --keep-built --jobs 2   # build 25 (sub1, cs 512-1536)
rm -rf .device/kpkg && agent/cake library export --library .device/klib --out .device/kpkg
# The package of call 1: the kernels call1-grid.json + lloyd-sample3.json route to (their
# autotuning candidates included), plus every configuration tune-ab.json lists
# (sub1-ab.json + cswide-ab.json; the rows and configurations were chosen from kmeans-20's rows).
python3 - <<'PY'
import json
R = "bench/results/2026-12-06-library-kmeans-22"
g = json.load(open(R + "/call1-grid.json"))
key = lambda s: (s["B"], s["N"], s["D"], s["K"], s["dtype"])
want = {key(s) for s in json.load(open(R + "/lloyd-sample3.json"))}
g["shapes"] += [s for s in json.load(open("libraries/kmeans/grid.json"))["shapes"] if key(s) in want]
json.dump(g, open("/tmp/c1-prune.json", "w"))
PY
rm -rf .device/kpkg-c1 /tmp/kp-ab
python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-c1 --grid /tmp/c1-prune.json
python3 bench/library/prune_package.py --package .device/kpkg --out /tmp/kp-ab --only $R/tune-ab.json
cp -n /tmp/kp-ab/cake_library/library/kernels/* .device/kpkg-c1/cake_library/library/kernels/
# The A arm of the host-time comparison: session 41's runtime.
mkdir -p .device/rt-old && git archive 4303fff libraries/runtime agent/cake_agent/expr.py | tar x -C .device/rt-old
(cd .device && tar czf call-c1.tgz kpkg-c1 rt-old)
# GPU (device tool): bash $R/call1.sh (carry .device/call-c1.tgz, .device/wheels)
