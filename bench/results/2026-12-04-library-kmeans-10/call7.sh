#!/bin/bash
# Call 7 (device tool, carrying .device/kpkg-final and .device/wheels): the final over all 420
# shapes with build 10c (the wait only), both columns, in one process.
LIB=.device/kpkg-final/cake_library/library TAG=wait timeout 570 bash bench/library/run_h200.sh final 0 0
