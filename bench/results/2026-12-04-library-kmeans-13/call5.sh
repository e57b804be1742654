#!/bin/bash
# Call 5 (device tool, carrying .device/call5.tgz = `tar czf` of .device/kpkg-call5, 5 MB, and
# .device/wheels; prepared in session 32; the package itself (39 MB) and the tracked tree exceed the
# tool's 64 MiB carry):
# 1. routing measured on 40 probe shapes (bench/library/probe_routing.py: the grid's distribution,
#    seed 7331, none of the grid's shapes): the router's choice and its 12 best-ranked rivals (and
#    their 32-bit twins), 960 pairs, ~2-3 min; scored on the CPU afterwards with
#    `probe_routing.py score --library .device/klib --table libraries/kmeans/table.json --tune
#    tune-probe-0.json`. The held-out grid shapes stay unmeasured.
# 2. the final of build 13 (as call3.sh), bounded by FINAL_S.
# Package: .device/kpkg-final (call3.sh's) with the cubins of
# `prune_package.py --package .device/kpkg --out .device/kpkg-probe --grid probe-grid.json --only
# probe-only.json` copied in (695 cubins, 39 MB): run.sh says how.
R=bench/results/2026-12-04-library-kmeans-13
[ -d .device/kpkg-call5 ] || tar xzf .device/call5.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-call5/cake_library/library GRID=$R/probe-grid.json ONLY=$R/probe-only.json TAG=probe \
  timeout ${PROBE_S:-240} bash bench/library/run_h200.sh tune 0 0
LIB=.device/kpkg-call5/cake_library/library TAG=b13 timeout ${FINAL_S:-480} bash bench/library/run_h200.sh final 0 0
