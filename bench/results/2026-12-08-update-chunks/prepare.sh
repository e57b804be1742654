#!/bin/bash
# For this folder's call (session 52), here after scripts/build.sh (~10 min of 2 cores with earlier
# subset kernels copied in): one package that routes the 43 grid shapes still without a Lloyd row
# (lloyd-sample7e.json), the 23 update A/B shapes (ab-shapes.json) and fp32 B2 N19727 D2432 K116
# as the whole library does, plus that point's 6 fastest table configurations (retime-d2432.json),
# with every update variant (chunks 32, 64, 256, 2048), as .device/callU.txz.
set -e
R=bench/results/2026-12-08-update-chunks
python3 - <<'PY' > .device/grid-u.json
import json
R = "bench/results/2026-12-08-update-chunks"
shapes = []
for f in ("bench/results/2026-12-07-lloyd-ahead/lloyd-sample7e.json", R + "/ab-shapes.json", R + "/retime-d2432.json"):
    shapes += [{k: s[k] for k in ("B", "N", "D", "K", "dtype")} for s in json.load(open(f))]
json.dump({"shapes": shapes}, __import__("sys").stdout)
PY
python3 bench/library/needed_variants.py --grid .device/grid-u.json --only $R/retime-d2432.json > .device/subset-u.json
mkdir -p .device/ksub-u/kernels
for k in .device/ksub-j5/kernels .device/ksub-s/kernels .device/ksub-m/kernels; do [ -d $k ] && cp -n $k/* .device/ksub-u/kernels/ || true; done
python3 libraries/kmeans/build.py --out .device/ksub-u --subset .device/subset-u.json --jobs 2 --keep-built
rm -rf .device/kpkg-u && agent/cake library export --library .device/ksub-u --out .device/kpkg-u
(cd .device && tar cJf callU.txz kpkg-u && ls -la callU.txz)
# GPU: bash $R/callU.sh (carry .device/callU.txz .device/wheels)
