#!/bin/bash
# Call 4 (device tool, carrying .device/kpkg-final and .device/wheels): the first half of the
# final with programmatic launch (both columns), then the Lloyd check on the first 20 shapes.
LIB=.device/kpkg-final/cake_library/library TAG=pdl bash bench/library/run_h200.sh final 0 210
LIB=.device/kpkg-final/cake_library/library TAG=pdl timeout 150 bash bench/library/run_h200.sh lloyd 0 20
