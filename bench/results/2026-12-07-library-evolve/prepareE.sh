#!/bin/bash
# For call E (session 48), here (~2 min): the tune list of every evolved.json configuration (now
# named apart from the planned ones) at its bucket's table points, and the small package that
# times them, and generation 0 exported again from scratch: session 47 found the buckets' starts
# taken from another dtype's or a wider D class's variant of their configuration (bug 3 in the
# README), so generation 0's starts and ratios were not the table's kernels. No whole-grid final: a subset library routes the grid's
# held-out shapes otherwise than the whole library (README, session 47), and needed_variants'
# closure needs ~3,000 variants for it.
set -e
R=bench/results/2026-12-07-library-evolve
rm -rf .device/evo-lib && bash $R/run.sh
python3 bench/library/evolved_finalists.py > $R/evolved-e.json
python3 bench/library/needed_variants.py --no-grid --only $R/evolved-e.json > .device/subset-e.json
python3 libraries/kmeans/build.py --out .device/ksub-e --subset .device/subset-e.json --jobs 2 --keep-built
rm -rf .device/kpkg-e && agent/cake library export --library .device/ksub-e --out .device/kpkg-e
(cd .device && tar czf callE.tgz kpkg-e && ls -la callE.tgz)
# GPU: bash $R/callE.sh (carry .device/evo-lib/gpu, .device/callE.tgz, .device/wheels)
