#!/bin/bash
# Call 2 (device tool, carrying .device/call1.tgz and .device/wheels; session 29): every legal
# configuration, timed side by side in one call, at the 10 tuned grid shapes where build 12 is
# behind flashlib (rows.json speedup_flashlib < 1; held-out shapes are never tuned). 1,624 pairs,
# ~0.06 s each; merge_tune.py then gives the table these times (the last input wins).
R=bench/results/2026-12-04-library-kmeans-13
[ -d .device/kpkg-new ] || tar xzf .device/call1.tgz -C .device
LIB=.device/kpkg-new/cake_library/library ONLY=$R/sweep-below-shapes.json TAG=sweep-below \
  timeout 400 bash bench/library/run_h200.sh tune 0 0
