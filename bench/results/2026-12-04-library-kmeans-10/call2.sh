#!/bin/bash
# Call 2 (device tool, carrying .device/kpkg-final, .device/wheels, .device/kda, .device/kdaP32,
# .device/kdaS32, .device/kdaR32): the first half of the final, then the KDA mixed-width A/B
# (2026-12-04-kda-index32, call 2).
LIB=.device/kpkg-final/cake_library/library TAG=h bash bench/library/run_h200.sh final 0 210
mkdir -p $OUT/kda
for b in P32 S32 R32; do
  timeout 100 python3 bench/kda/ab.py --a .device/kda --b .device/kda$b --cases anchors --rounds 5 --out $OUT/kda/ab-$b.json > $OUT/kda/ab-$b.log 2>&1
  echo "$b rc $?"; grep -E "geomean" $OUT/kda/ab-$b.log
done
