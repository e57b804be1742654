#!/bin/bash
# How this folder's results were made (session 49). Here, then the device call:
R=bench/results/2026-12-07-lloyd-ahead
set -e
python3 bench/library/lloyd_coverage.py --emit-missing /tmp/missing.json   # lloyd-sample7.json = a control + these
# .device/callG.txz: (cd .device && tar cJf callG.txz kpkg-g), call G's package
#   device, one call for K and J (carry .device/callK.tgz .device/callG.txz .device/wheels; H100):
#     TK=110 bash bench/results/2026-12-07-wgmma-w3/callK.sh; T=330 bash bench/results/2026-12-07-lloyd-ahead/callJ.sh
#   -> callJ/
#   session 50 (H100), after K2 in one call: T=400 bash $R/callJ2.sh -> callJ2/ (out of memory at shape 29)
python3 bench/library/lloyd_coverage.py --emit-missing $R/lloyd-sample7c.json
#   then: SAMPLE=sample7c T=380 bash $R/callJ2.sh -> nothing in 380 s (call J3)
#   after the ready_first order: mkdir -p $OUT/j4; (export OUT=$OUT/j4; SAMPLE=sample7c T=60 bash $R/callJ2.sh) -> callJ4/
python3 bench/library/lloyd_coverage.py
