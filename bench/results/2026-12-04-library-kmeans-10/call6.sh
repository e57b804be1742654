#!/bin/bash
# Call 6 (device tool, carrying .device/kpkg-ab, .device/pdl-alt, .device/ws, .device/wheels):
# where the serial slowdown of build 10b comes from. The 30 shapes of .device/ws/pdl_ab.json (the
# 16 most slowed, 8 tiniest, 6 mid-size), each with its routed configuration, timed through the
# dispatcher with four builds of the same kernels: with the signal and the wait (build 10b),
# without either (build 10), the wait only, the signal only; serially (CAKE_PROGRAMMATIC_LAUNCH=0)
# and, for the two builds whose kernels wait, with programmatic launch.
K=.device/kpkg-ab/cake_library/library/kernels
for run in with:0 without:0 wait_only:0 signal_only:0 with:1 wait_only:1 without:0 with:0; do
  v=${run%:*}; pdl=${run#*:}
  cp .device/pdl-alt/$v/*.cubin $K/
  CAKE_PROGRAMMATIC_LAUNCH=$pdl LIB=.device/kpkg-ab/cake_library/library ONLY=.device/ws/pdl_ab.json \
    TAG=$v-pdl$pdl bash bench/library/run_h200.sh tune 0 0 | tail -1
done
