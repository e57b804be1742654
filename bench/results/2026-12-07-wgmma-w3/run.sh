#!/bin/bash
# How this folder's results were made (session 49). Here, then the device call:
R=bench/results/2026-12-07-wgmma-w3
set -e
bash $R/prepareK.sh            # the w3 variants, the tune list's subset library, .device/callK.tgz
#   device: bash $R/callK.sh                       -> callK/ (tune-w3-0.json, table.json)
