#!/bin/bash
# How this folder's results were made (session 50). Here: call K's package (the wgmma-w3 folder):
#   bash bench/results/2026-12-07-wgmma-w3/prepareK.sh     # .device/callK.tgz
# Device, one call (carry .device/callK.tgz .device/callI.tgz .device/callG.txz .device/wheels; H100):
#   TL=100 bash bench/results/2026-12-07-large-rows/callL.sh; T=270 bash bench/results/2026-12-07-library-evolve/callI.sh;
#   mkdir -p $OUT/j4; (export OUT=$OUT/j4; SAMPLE=sample7c T=60 bash bench/results/2026-12-07-lloyd-ahead/callJ2.sh)
#   -> callL/ (final-large-0.json)
python3 -c "
import json
for r in json.load(open('bench/results/2026-12-07-large-rows/callL/final-large-0.json')):
    print(r['dtype'], r['B'], r['N'], r['D'], r['K'], round(2 * r['B'] * r['N'] * r['K'] * r['D'] / r['cake_ms'] / 1e9), 'TFLOP/s')"
