#!/bin/bash
# Session 46, here (CPU), after generation 0 is ingested: the package call B measures.
# The winners (>= 1.03x over their bucket's start) into libraries/kmeans/evolved.json; the tune list
# that times them at their buckets' table points; the subset of the library one call launches
# (the grid's routed kernels and 8 autotuning candidates per shape, the tune list's, the evolved
# ones), built in minutes (build.py --subset) and exported with the C++ dispatcher.
set -e
R=bench/results/2026-12-07-library-evolve
agent/cake library winners --db .device/evo-lib/lib.db --out $R/winners-g0.json --emit libraries/kmeans/evolved.json
python3 bench/library/evolved_finalists.py > $R/evolved-only.json
python3 bench/library/needed_variants.py --candidates 8 --only $R/evolved-only.json > .device/subset.json
python3 libraries/kmeans/build.py --out .device/ksub --subset .device/subset.json --jobs 2 --keep-built
rm -rf .device/kpkg-b && agent/cake library export --library .device/ksub --out .device/kpkg-b
(cd .device && tar czf callB.tgz kpkg-b && ls -la callB.tgz)
# GPU (device tool): bash $R/callB.sh (carry .device/callB.tgz, .device/wheels)
