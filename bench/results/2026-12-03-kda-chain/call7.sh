#!/bin/bash
# Session 20 call 7: the cheaper launcher. Host profile, then the library against FlashKDA
# (fla skipped), the end-to-end layer check and the bad-input test.
mkdir -p $OUT/host $OUT/anchors $OUT/layer
timeout 90 python3 bench/kda/host_profile.py --library .device/kda-lpt --out $OUT/host/host.json > $OUT/host/host.log 2>&1
echo "host rc $?"; grep '^{' $OUT/host/host.log | cut -c1-230
OUT=$OUT/anchors LIB=.device/kda-lpt TIME=routed FLAON=none timeout 280 bash bench/kda/run_h200.sh anchors,edges,grid | tail -4
OUT=$OUT/layer LIB=.device/kda-lpt timeout 170 bash bench/kda/run_h200.sh layer; echo "layer rc $?"
(cd agent && CAKE_KDA_LIBRARY=../.device/kda-lpt timeout 40 python3 -m unittest tests.test_kda.BadInputTest 2>&1 | tail -3)
