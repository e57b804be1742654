#!/bin/bash
# For call J5 (session 51), here (~10-20 min of 2 cores): a package that routes the 152 shapes of
# lloyd-sample7d.json as the whole library does (needed_variants' closure over those shapes only,
# instead of call G's 3,498-variant package for all 420), as .device/callJ5.txz.
set -e
R=bench/results/2026-12-07-lloyd-ahead
python3 -c "import json,sys; s=json.load(open('$R/lloyd-sample7d.json')); json.dump({'shapes': [{k: x[k] for k in ('B','N','D','K','dtype')} for x in s]}, sys.stdout)" > .device/grid-7d.json
python3 bench/library/needed_variants.py --grid .device/grid-7d.json > .device/subset-j5.json
mkdir -p .device/ksub-j5/kernels
for k in .device/ksub-s/kernels .device/ksub-m/kernels; do [ -d $k ] && cp -n $k/* .device/ksub-j5/kernels/ || true; done
python3 libraries/kmeans/build.py --out .device/ksub-j5 --subset .device/subset-j5.json --jobs 2 --keep-built
rm -rf .device/kpkg-j5 && agent/cake library export --library .device/ksub-j5 --out .device/kpkg-j5
(cd .device && tar cJf callJ5.txz kpkg-j5 && ls -la callJ5.txz)
# GPU: P=.device/kpkg-j5 ARCHIVE=.device/callJ5.txz SAMPLE=sample7d PREWARM=6 T=300 bash $R/callJ2.sh (carry .device/callJ5.txz .device/wheels)
