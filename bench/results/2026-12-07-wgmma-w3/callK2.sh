#!/bin/bash
# Call K2 (carry .device/callK.tgz, .device/wheels): call K's tune at the 6 table points that are
# probes, not grid shapes (probe-points.json: call K's tune walked grid.json and skipped them).
R=bench/results/2026-12-07-wgmma-w3
GRID=$R/probe-points.json TAG=w3probe TK=${TK:-120} bash $R/callK.sh
