#!/bin/bash
# Call J2 (carry .device/callG.txz, .device/wheels): call J on lloyd-sample7b.json, every grid shape
# without a Lloyd row after call J (lloyd_coverage.py --emit-missing, 247), with 8 prewarm workers
# (now sharing half the GPU's memory: call J's 12 uncapped workers left the measurement out of
# memory at its 16th shape). Session 50 ran it twice: SAMPLE=sample7b (out of memory at its
# 29th shape: callJ2/), then SAMPLE=sample7c (the 221 shapes still without a row: callJ3/).
SAMPLE=${SAMPLE:-sample7b} PREWARM=${PREWARM:-8} bash bench/results/2026-12-07-lloyd-ahead/callJ.sh
