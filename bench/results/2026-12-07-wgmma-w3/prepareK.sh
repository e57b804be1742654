#!/bin/bash
# For call K, here (~2 min): the w3 variants compiled into a copy of variants.json, the tune list
# (w3-tune.json, committed: the 17 points and the configurations timed at each), the subset
# library that holds them and its package. As run, build.py took --wg3 (the experiment's flag);
# since the adoption (same session) WG3_CONFIGS are in the default plan and variants.json, so
# the flag is gone and the first build step only confirms there is nothing to add.
set -e
R=bench/results/2026-12-07-wgmma-w3
cp libraries/kmeans/variants.json /tmp/variants-w3.json
python3 libraries/kmeans/build.py --out /tmp/kupd-w3 --update-variants --variants /tmp/variants-w3.json \
  --dtypes float16,bfloat16 --jobs 2
python3 bench/library/needed_variants.py --variants /tmp/variants-w3.json --no-grid --only $R/w3-tune.json > .device/subset-k.json
rm -rf .device/ksub-k && mkdir -p .device/ksub-k/kernels && cp /tmp/kupd-w3/kernels/* .device/ksub-k/kernels/
python3 libraries/kmeans/build.py --out .device/ksub-k --subset .device/subset-k.json --jobs 2 --keep-built
rm -rf .device/kpkg-k && agent/cake library export --library .device/ksub-k --out .device/kpkg-k
(cd .device && tar czf callK.tgz kpkg-k && ls -la callK.tgz)
# GPU: bash $R/callK.sh (carry .device/callK.tgz, .device/wheels)
