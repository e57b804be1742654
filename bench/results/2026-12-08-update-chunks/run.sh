#!/bin/bash
# How this folder's results were made (session 52). Here, after scripts/build.sh:
R=bench/results/2026-12-08-update-chunks
set -e
bash $R/prepare.sh                      # .device/callU.txz (the package) and the wheels from prepare-session51.sh
# device (H100, one call; carry .device/callU.txz .device/wheels):
#   TA=90 TT=30 TF=50 TJ=120 bash $R/callU.sh  -> callU/
python3 bench/library/merge_tune.py --out libraries/kmeans/table.json libraries/kmeans/table.json $R/callU/tune-d2432-0.json
python3 bench/library/lloyd_coverage.py
