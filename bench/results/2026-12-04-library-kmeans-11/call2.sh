#!/bin/bash
# Call 2 (device tool, carrying .device/kpkg-tune and .device/wheels): the fl configurations and the
# shapes' current best ones, at the tuned shapes of .device/ws/fl.json (/tmp/rx/mkfinal.py's list,
# reproduced by bench/results/2026-12-04-library-kmeans-11/finalists_fl.py).
LIB=.device/kpkg-tune/cake_library/library ONLY=.device/ws/fl.json TAG=fl2 timeout 570 bash bench/library/run_h200.sh tune 0 0
