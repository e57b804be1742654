#!/bin/bash
# After call D's results are ingested (evolve-ingest): its winners (graph-timed generation 0)
# into evolved.json and variants.json, generation 1 exported (run.sh resumes every bucket), the
# tune list of every evolved configuration, and the library subset call E launches.
set -e
R=bench/results/2026-12-07-library-evolve
agent/cake library winners --db .device/evo-lib/lib.db --out $R/winners-d.json --emit libraries/kmeans/evolved.json
python3 libraries/kmeans/build.py --update-variants
bash $R/run.sh
python3 bench/library/evolved_finalists.py > $R/evolved-e.json
python3 bench/library/needed_variants.py --candidates 8 --only $R/evolved-e.json > .device/subset-e.json
python3 libraries/kmeans/build.py --out .device/ksub-e --subset .device/subset-e.json --jobs 2 --keep-built
rm -rf .device/kpkg-e && agent/cake library export --library .device/ksub-e --out .device/kpkg-e
(cd .device && tar czf callE.tgz kpkg-e && ls -la callE.tgz)
# GPU: bash $R/callE.sh (carry .device/evo-lib/gpu, .device/callE.tgz, .device/wheels)
