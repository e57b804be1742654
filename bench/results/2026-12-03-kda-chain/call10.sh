#!/bin/bash
# Session 20 call 10: the short-call routing (short_tokens = 64), paired against the library
# without it (same kernels).
mkdir -p $OUT/ab
timeout 200 python3 bench/kda/ab.py --a .device/kda-lpt --b .device/kda-short --cases anchors,grid --rounds 7 --out $OUT/ab/ab.json > $OUT/ab/ab.log 2>&1
echo "ab rc $?"; grep -E "geomean" $OUT/ab/ab.log
awk '$0 ~ /A\/B/ {for (i = 1; i <= NF; i++) if ($i == "A/B") r = $(i + 1); if (r > 1.06 || r < 0.94) print}' $OUT/ab/ab.log | cut -c1-160
