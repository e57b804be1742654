#!/bin/bash
# For call G (session 48), here: the package that routes all 420 grid shapes as the whole library
# does at 1, 4 and 8 autotuning candidates (needed_variants' closure, exact since session 48:
# 3,498 of 9,010 variants; ~30 min of 2 cores, less with --keep-built outputs copied in).
set -e
python3 bench/library/needed_variants.py --candidates 8 > .device/subset-g.json
python3 libraries/kmeans/build.py --out .device/ksub-g --subset .device/subset-g.json --jobs 2 --keep-built
rm -rf .device/kpkg-g && agent/cake library export --library .device/ksub-g --out .device/kpkg-g
(cd .device && tar czf callG.tgz kpkg-g && ls -la callG.tgz)
