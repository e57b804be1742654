#!/bin/bash
# Call 4 (device tool, carrying .device/kpkg-final and .device/wheels): the final over all 420
# shapes with build 11 (hx), both columns, in one process.
LIB=.device/kpkg-final/cake_library/library TAG=hx timeout 590 bash bench/library/run_h200.sh final 0 0
