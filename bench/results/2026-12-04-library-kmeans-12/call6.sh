#!/bin/bash
# Call 6 (device tool, carrying .device/kpkg-final and .device/wheels): every cpw configuration,
# rebuilt with the stage's wgmma chain left running under the next refill (wgmma.wait 1, st - 2
# stages ahead), on the 63 tuned shapes where cpw's best was within 1.3x of the table's best
# (tune-cpw3-shapes.json). Package: build.py, export, prune_package.py --only tune-cpw3-shapes.json.
LIB=.device/kpkg-final/cake_library/library ONLY=bench/results/2026-12-04-library-kmeans-12/tune-cpw3-shapes.json TAG=cpw3 timeout 300 bash bench/library/run_h200.sh tune 0 0
