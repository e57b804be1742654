#!/bin/bash
# Call 7 (device tool, carrying .device/kpkg-final and .device/wheels): the final over the 183
# shapes whose route stages (.device/ws/staged.json), build 11c (16-byte staging kernel).
LIB=.device/kpkg-final/cake_library/library ONLY=.device/ws/staged.json TAG=pad16 timeout 320 bash bench/library/run_h200.sh final 0 0
