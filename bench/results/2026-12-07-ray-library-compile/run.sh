#!/bin/bash
# The KMeans library's compile phase on Ray (build.py --ray local) against build.py's own threads
# (--jobs 2), the same 40-variant subset (+ 28 auxiliary kernels), fresh output each run, paired.
R=bench/results/2026-12-07-ray-library-compile
farm-bench -n 3 --warmup 1 --timeout 400 \
  --vs "sh -c 'rm -rf /tmp/oj && exec python3 libraries/kmeans/build.py --out /tmp/oj --subset $R/subset-40.json --jobs 2'" \
  -- sh -c "rm -rf /tmp/or && exec python3 libraries/kmeans/build.py --out /tmp/or --subset $R/subset-40.json --ray local"
