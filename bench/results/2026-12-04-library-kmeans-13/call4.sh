#!/bin/bash
# Call 4 (device tool, carrying .device/call1.tgz and .device/wheels; prepared in session 31):
# call 1's re-time and call 2's sweep again, on an H200 only (the table holds H200 times; session
# 31 ran them on an H100 and their files did not come back: the device tool returns at most 8
# files, so this one packs its outputs into one). ~300 s.
R=bench/results/2026-12-04-library-kmeans-13
nvidia-smi -L
[ -d .device/kpkg-new ] || tar xzf .device/call1.tgz -C .device
NEW=.device/kpkg-new/cake_library/library
LIB=$NEW ONLY=$R/retime-shapes.json TAG=retime timeout 330 bash bench/library/run_h200.sh tune 0 0
LIB=$NEW ONLY=$R/sweep-below-shapes.json TAG=sweep-below timeout 200 bash bench/library/run_h200.sh tune 0 0
(cd $OUT && tar czf call4.tgz tune-* && rm -f tune-*)
