#!/bin/bash
# Call 6 (session 33; carry .device/call5.tgz, .device/call1.tgz, .device/wheels): the rows of
# build 13's final that call 5's FINAL_S cut (START 305 of the mixed order), then call4.sh.
R=bench/results/2026-12-04-library-kmeans-13
[ -d .device/kpkg-call5 ] || tar xzf .device/call5.tgz -C .device
LIB=.device/kpkg-call5/cake_library/library TAG=b13 timeout ${FINAL_S:-200} bash bench/library/run_h200.sh final 305 0
bash $R/call4.sh
