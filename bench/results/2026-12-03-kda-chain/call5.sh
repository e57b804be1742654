#!/bin/bash
# Session 19 call 5: paired A/B (bench/kda/ab.py): HEAD's library (A) against longest-first pass 2 (B)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
python3 bench/kda/ab.py --a .device/kda --b .device/kda-lpt --cases anchors,grid --rounds 7 --out $OUT/ab.json > $OUT/ab.log 2>&1
tail -60 $OUT/ab.log
