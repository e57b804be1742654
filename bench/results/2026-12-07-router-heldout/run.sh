#!/bin/bash
# How this folder's results were made (session 48). Here (the compile machine), then one device
# call per script (device tool; the carry named in each script's header):
R=bench/results/2026-12-07-router-heldout
set -e
bash $R/prepareF.sh            # the evaluation list and its package (.device/callF.tgz)
#   device: T=470 bash $R/callF.sh                 -> callF/ (the held-out evaluation table)
python3 bench/library/heldout_regret.py --eval $R/callF/tune-heldout-0.json --candidates 1,2,4,6,8
bash $R/prepareG.sh            # the package that routes as the whole library (.device/callG.tgz)
#   device: T1=290 T2=110 bash $R/callG.sh         -> callG/, rows.json, rows-heldout-8.json
python3 bench/library/rows_table.py $R/rows.json --before bench/results/2026-12-06-library-kmeans-23/rows.json
#   device: T=330 bash $R/callH.sh                 -> callH/ (Lloyd on lloyd-sample6.json)
