#!/bin/bash
# Call 1 (device tool, carrying .device/kpkg-tune and .device/wheels): the fl configurations and the
# shapes' current best ones, at the tuned shapes of .device/ws/fl.json (finalists_fl.py's list; call 1's
# also had the kn = 16 and r4_n1 fl tiles, since dropped: they spill).
LIB=.device/kpkg-tune/cake_library/library ONLY=.device/ws/fl.json TAG=fl timeout 570 bash bench/library/run_h200.sh tune 0 0
