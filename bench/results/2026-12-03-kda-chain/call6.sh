#!/bin/bash
# Session 20 call 6: call 5's paired A/B repeated (A = .device/kda, the committed library; B =
# .device/kda-lpt, longest-first pass 2), then B against FlashKDA (fla skipped: its autotuning
# does not fit the call) over anchors, edges and the grid.
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
mkdir -p $OUT/ab $OUT/anchors
timeout 220 python3 bench/kda/ab.py --a .device/kda --b .device/kda-lpt --cases anchors,grid --rounds 7 --out $OUT/ab/ab.json > $OUT/ab/ab.log 2>&1
echo "ab rc $?"; grep -iE "geomean|varlen" $OUT/ab/ab.log | tail -8
OUT=$OUT/anchors LIB=.device/kda-lpt TIME=routed FLAON=none timeout 330 bash bench/kda/run_h200.sh anchors,edges,grid
