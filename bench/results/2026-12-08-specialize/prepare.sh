#!/bin/bash
# For this folder's call (callV.sh), here after scripts/build.sh: one package that routes the 21
# grid rows slower than flashlib in call G (shapes.json; bench/results/2026-12-07-router-heldout)
# as the whole library does, plus each row's 3 fastest table configurations (held-out rows: the
# router's 3 candidates) built twice more with sizes fixed at compile time: D only (`_xd..`) and
# every symbol of the kernel (`_xb..d..k..n..`), and the 38 Lloyd shapes of callW.sh (lloyd-rb.json:
# the row-per-block centroids kernel; update-above264.json: update chunks), as .device/callV.txz. ~1,300 kernels: ~10-15 min of 2 cores.
set -e
R=bench/results/2026-12-08-specialize
mkdir -p .device/wheels
ls .device/wheels/flashlib-0.4.0-*.whl .device/wheels/flash_kmeans-0.3.1-*.whl >/dev/null 2>&1 ||
  pip download -q --no-deps -d .device/wheels flashlib==0.4.0 flash-kmeans==0.3.1
python3 bench/library/specialize_requests.py --shapes $R/shapes.json --specialize $R/specialize.json \
  --only $R/only.json > $R/subset.json
python3 -c "import json; json.dump({'shapes': json.load(open('$R/shapes.json')) + json.load(open('$R/lloyd-rb.json')) + json.load(open('$R/update-above264.json'))}, open('.device/grid-v.json', 'w'))"
python3 bench/library/needed_variants.py --grid .device/grid-v.json > .device/needed-v.json
python3 -c "import json; json.dump(sorted(set(json.load(open('.device/needed-v.json'))) | set(json.load(open('$R/subset.json')))), open('.device/subset-v.json', 'w'))"
python3 libraries/kmeans/build.py --out .device/ksub-v --subset .device/subset-v.json --specialize $R/specialize.json \
  --jobs 2 --keep-built
rm -rf .device/kpkg-v && agent/cake library export --library .device/ksub-v --out .device/kpkg-v
(cd .device && tar cJf callV.txz kpkg-v && ls -la callV.txz)
# GPU: bash $R/callV.sh (carry .device/callV.txz .device/wheels)
