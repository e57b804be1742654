#!/bin/bash
# How this folder's results were made (session 49). Here, then the device call:
R=bench/results/2026-12-07-lloyd-ahead
set -e
python3 bench/library/lloyd_coverage.py --emit-missing /tmp/missing.json   # lloyd-sample7.json = a control + these
#   device: bash $R/callJ.sh  -> callJ/ (carry .device/callG.txz: tar cJf of .device/kpkg-g, .device/wheels)
python3 bench/library/lloyd_coverage.py
