#!/bin/bash
# Call 3 (device tool, carrying .device/kpkg-tune and .device/wheels): the hx configurations at
# the tuned shapes of finalists_hx.py's list (.device/ws/hx.json).
LIB=.device/kpkg-tune/cake_library/library ONLY=.device/ws/hx.json TAG=hx timeout 570 bash bench/library/run_h200.sh tune 0 0
