#!/bin/bash
# Session 51's one device call (prepare-session51.sh first): calls S (staged-x tune, 180 s), M (evolved
# winners' tune, 50 s) and J5 (Lloyd, 200 s), each under its own limit so the outputs survive.
TS=180 bash bench/results/2026-12-07-odd-d-loads/callS.sh
TM=50 bash bench/results/2026-12-07-library-evolve/callM.sh
P=.device/kpkg-j5 ARCHIVE=.device/callJ5.txz SAMPLE=sample7d PREWARM=6 T=200 bash bench/results/2026-12-07-lloyd-ahead/callJ2.sh
ls $OUT
