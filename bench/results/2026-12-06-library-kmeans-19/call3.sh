#!/bin/bash
# Call 3 (session 39; carry .device/call-b19.tgz and .device/wheels, as call 2): build 19's final
# on the grid shapes call 2 did not reach in its 575 s (from index 380), anchors in the same call.
rm -rf .device/kpkg-b19 && tar xzf .device/call-b19.tgz -C .device
nvidia-smi -L
CAKE_BENCH_SERIAL=0 LIB=.device/kpkg-b19/cake_library/library TAG=b19 timeout ${FINAL_S:-400} \
  bash bench/library/run_h200.sh final 380 0
