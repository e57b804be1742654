#!/bin/bash
# For the next session's one GPU call (callD.sh), here (CPU, ~6 min): generation 0 again with the
# graph timer (the bucket tasks' "timer"), the tune list of evolved.json's winners, and the
# library subset the call launches (the grid's routed kernels and 8 autotuning candidates per
# shape, the tune list's configurations, the evolved ones), exported with its dispatcher.
set -e
R=bench/results/2026-12-07-library-evolve
rm -rf .device/evo-lib && bash $R/run.sh
python3 bench/library/evolved_finalists.py > $R/evolved-only.json
python3 bench/library/needed_variants.py --candidates 8 --only $R/evolved-only.json > .device/subset-d.json
python3 libraries/kmeans/build.py --out .device/ksub-d --subset .device/subset-d.json --jobs 2 --keep-built
rm -rf .device/kpkg-d && agent/cake library export --library .device/ksub-d --out .device/kpkg-d
(cd .device && tar czf callD.tgz kpkg-d && ls -la callD.tgz)
# GPU: bash $R/callD.sh (carry .device/evo-lib/gpu, .device/callD.tgz, .device/wheels; ~560 s)
