#!/bin/bash
# How this folder's results were made (session 50): no device call, committed data only.
python3 bench/results/2026-12-07-odd-d-loads/load_width.py > bench/results/2026-12-07-odd-d-loads/load_width.txt
cat bench/results/2026-12-07-odd-d-loads/load_width.txt
# The staged-x experiment (built here, session 50; 6 min on 2 cores):
#   bash bench/results/2026-12-07-odd-d-loads/prepareS.sh      # stx-tune.json, .device/callS.tgz
# Device (not run yet; carry .device/callS.tgz .device/wheels):
#   TS=200 bash bench/results/2026-12-07-odd-d-loads/callS.sh   # -> callS/ (tune-stx-0.json, table-stx.json)
