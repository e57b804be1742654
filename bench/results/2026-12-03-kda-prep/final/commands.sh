#!/bin/bash
# The final call of bench/results/2026-12-03-kda-prep: FlashKDA and fla in the same process.
TIME=routed bash bench/kda/run_h200.sh anchors,edges,grid
bash bench/kda/run_h200.sh layer
(cd agent && python3 -m unittest tests.test_kda.BadInputTest -v) > $OUT/badinput.log 2>&1; tail -3 $OUT/badinput.log
