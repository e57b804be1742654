#!/bin/bash
# How this folder's results were made (session 49). Here, then the device call:
R=bench/results/2026-12-07-wgmma-w3
set -e
bash $R/prepareK.sh            # the w3 variants, the tune list's subset library, .device/callK.tgz
#   device, one call for K and J (carry .device/callK.tgz .device/callG.txz .device/wheels; H100):
#     TK=110 bash bench/results/2026-12-07-wgmma-w3/callK.sh; T=330 bash bench/results/2026-12-07-lloyd-ahead/callJ.sh
#   -> callK/ (tune-w3-0.json, table.json: merged into libraries/kmeans/table.json)
#   session 50, device (carry .device/callK.tgz .device/callG.txz .device/wheels; H100):
#     TK=100 bash $R/callK2.sh; T=400 bash bench/results/2026-12-07-lloyd-ahead/callJ2.sh
#   -> callK2/ (table-w3probe.json: now libraries/kmeans/table.json)
