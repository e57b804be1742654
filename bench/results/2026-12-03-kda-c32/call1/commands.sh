#!/bin/bash
# Session 18 call 1: layer check + BadInputTest (owed), then anchors+edges CAKE vs FlashKDA (no fla)
bash bench/kda/run_h200.sh layer
(cd agent && python3 -m unittest tests.test_kda.BadInputTest -v) > $OUT/badinput.log 2>&1; tail -3 $OUT/badinput.log
TIME=routed FLAON=none bash bench/kda/run_h200.sh anchors,edges
