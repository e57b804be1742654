#!/bin/bash
# Call 1 (device tool, carrying .device/call1.tgz and .device/wheels): the trimmed D classes
# A/B (tune mode, the routed configuration of the 82 grid shapes whose kernel moves to a trimmed
# class; the 67 tuned ones run: package without the trimmed classes, with them, twice,
# alternating), then the re-time of every tuned shape's top configurations with the new package.
# Packages: build.py --out .device/klib (build 13); .device/klib-old = its library.json without
# the `tail` variants; export both; prune_package.py --only ab-shapes.json (old) and
# --only retime-shapes.json + ab-shapes.json (new); tar czf call1.tgz kpkg-new kpkg-ab-old.
R=bench/results/2026-12-04-library-kmeans-13
tar xzf .device/call1.tgz -C .device
OLD=.device/kpkg-ab-old/cake_library/library NEW=.device/kpkg-new/cake_library/library
for round in 1 2; do
  LIB=$OLD ONLY=$R/ab-shapes.json TAG=ab-old$round timeout 100 bash bench/library/run_h200.sh tune 0 0
  LIB=$NEW ONLY=$R/ab-shapes.json TAG=ab-new$round timeout 100 bash bench/library/run_h200.sh tune 0 0
done
LIB=$NEW ONLY=$R/retime-shapes.json TAG=retime timeout 330 bash bench/library/run_h200.sh tune 0 0
