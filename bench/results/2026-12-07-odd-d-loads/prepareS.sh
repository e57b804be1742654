#!/bin/bash
# For call S (session 50), here (~5 min on 2 cores): the staged-x tcd variants (build.py --staged-x,
# fp16/bf16) compiled into a copy of variants.json, the tune list (stx-tune.json, committed), the
# subset library that holds its configurations and its package.
set -e
R=bench/results/2026-12-07-odd-d-loads
python3 $R/stx_tune.py > $R/stx-tune.json
cp libraries/kmeans/variants.json /tmp/variants-stx.json
python3 libraries/kmeans/build.py --out /tmp/kupd-stx --update-variants --staged-x --variants /tmp/variants-stx.json \
  --dtypes float16,bfloat16 --jobs 2
python3 bench/library/needed_variants.py --variants /tmp/variants-stx.json --no-grid --only $R/stx-tune.json > .device/subset-s.json
rm -rf .device/ksub-s && mkdir -p .device/ksub-s/kernels && cp /tmp/kupd-stx/kernels/* .device/ksub-s/kernels/
for k in .device/ksub-g/kernels .device/ksub-m/kernels; do [ -d $k ] && cp -n $k/* .device/ksub-s/kernels/ || true; done
python3 libraries/kmeans/build.py --out .device/ksub-s --subset .device/subset-s.json \
  --staged-x --jobs 2 --keep-built
rm -rf .device/kpkg-s && agent/cake library export --library .device/ksub-s --out .device/kpkg-s
(cd .device && tar czf callS.tgz kpkg-s && ls -la callS.tgz)
# GPU: bash $R/callS.sh (carry .device/callS.tgz, .device/wheels)
