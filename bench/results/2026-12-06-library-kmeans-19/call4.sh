#!/bin/bash
# Call 4 (session 39; carry .device/call-sk3.tgz = `tar czf` of .device/kpkg-sk3: build 19 plus the
# narrower split-K tiles (k32_w1_t_ks1, sd1/sd2_k64_w1_t_ks1), exported and pruned to
# split2-grid.json's shapes and split2-only.json's configurations, and .device/wheels): the new
# configurations and each point's three fastest in build 19's table, checked on random and
# clustered data, then timed.
R=bench/results/2026-12-06-library-kmeans-19
rm -rf .device/kpkg-sk3 && tar xzf .device/call-sk3.tgz -C .device
nvidia-smi -L
LIB=.device/kpkg-sk3/cake_library/library GRID=$R/split2-grid.json ONLY=$R/split2-only.json TAG=split2 \
  CLUSTERED=1 timeout ${TUNE_S:-300} bash bench/library/run_h200.sh tune 0 0
