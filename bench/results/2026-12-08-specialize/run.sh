#!/bin/bash
# How this folder's results are to be made (planned in session 53, when no device was lent).
# Here, after scripts/build.sh:
R=bench/results/2026-12-08-specialize
set -e
python3 $R/ptx_sizes.py > $R/ptx-sizes.txt  # the CPU-side evidence: PTX lines and ptxas registers
bash $R/prepare.sh                          # .device/callV.txz and the anchor wheels
# device (one call; carry .device/callV.txz .device/wheels):
#   bash $R/callV.sh  -> callV/
#   bash $R/callW.sh  -> callW/ (same package; may share the warm machine)
