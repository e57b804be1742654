#!/bin/bash
# Call 2 (device tool; outputs renamed tune-cpw-masked-0.*, carrying .device/kpkg-final and .device/wheels): tune the new cpw family
# (cp.async + wgmma, no staging) on the 101 grid shapes it can serve (fp32, or even D) whose
# call-4/5 time was >= 8 us: tune-cpw-shapes.json (every cpw configuration and its 32-bit twin).
# Package: build.py --out .device/klib; cake library export; prune_package.py --only tune-cpw-shapes.json.
LIB=.device/kpkg-final/cake_library/library ONLY=bench/results/2026-12-04-library-kmeans-12/tune-cpw-shapes.json TAG=cpw timeout 480 bash bench/library/run_h200.sh tune 0 0
