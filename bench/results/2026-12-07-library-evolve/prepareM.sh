#!/bin/bash
# For call M (session 50), here (~5 min): every evolved.json configuration (call I's two winners
# added) at its bucket's table points beside each point's two best (evolved-m.json), the subset
# library that holds them (kernels already compiled here are kept) and its package.
set -e
R=bench/results/2026-12-07-library-evolve
python3 bench/library/evolved_finalists.py > $R/evolved-m.json
python3 bench/library/needed_variants.py --no-grid --only $R/evolved-m.json > .device/subset-m.json
mkdir -p .device/ksub-m/kernels
for k in .device/ksub-g/kernels .device/ksub-k/kernels /tmp/kupd-i/kernels; do
  [ -d $k ] && cp -n $k/* .device/ksub-m/kernels/ 2>/dev/null || true
done
python3 libraries/kmeans/build.py --out .device/ksub-m --subset .device/subset-m.json --jobs 2 --keep-built
rm -rf .device/kpkg-m && agent/cake library export --library .device/ksub-m --out .device/kpkg-m
(cd .device && tar czf callM.tgz kpkg-m && ls -la callM.tgz)
# GPU: bash $R/callM.sh (carry .device/callM.tgz, .device/wheels)
