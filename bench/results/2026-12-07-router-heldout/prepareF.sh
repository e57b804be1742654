#!/bin/bash
# For call F (session 48), here (~10 min): the held-out grid shapes' evaluation list (the router's
# 12 best-ranked configurations and the nearest 8 table points' fastest, with 32-bit twins) and
# the subset package that times them.
set -e
R=bench/results/2026-12-07-router-heldout
python3 bench/library/heldout_finalists.py > $R/heldout-finalists.json
python3 bench/library/needed_variants.py --no-grid --only $R/heldout-finalists.json > .device/subset-f.json
python3 libraries/kmeans/build.py --out .device/ksub-f --subset .device/subset-f.json --jobs 2 --keep-built
rm -rf .device/kpkg-f && agent/cake library export --library .device/ksub-f --out .device/kpkg-f
(cd .device && tar czf callF.tgz kpkg-f && ls -la callF.tgz)
