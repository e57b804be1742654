#!/bin/bash
# Call 6 (session 39; carry .device/call-b19.tgz and .device/call-b20.tgz (calls 2 and 5) and
# .device/wheels): builds 19 and 20 on all 420 grid shapes, one after the other in one call on
# one card, each with the anchors measured beside it (the anchors precompiled first).
rm -rf .device/kpkg-b19 .device/kpkg-b20
tar xzf .device/call-b19.tgz -C .device && tar xzf .device/call-b20.tgz -C .device
nvidia-smi -L
for b in b19 b20; do
  CAKE_BENCH_SERIAL=0 PREWARM=12 LIB=.device/kpkg-$b/cake_library/library TAG=$b-c6 timeout ${FINAL_S:-240} \
    bash bench/library/run_h200.sh final 0 0
done
