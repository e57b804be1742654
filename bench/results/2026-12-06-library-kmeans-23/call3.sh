#!/bin/bash
# Call 3 (session 44), the package of call 2 (call-d3.tgz): (1) autotune_noise.py: how often the
# first-call autotuner picks a slower kernel than its fastest candidate on the held-out grid
# shapes under 20 us, with its default timer and a longer one (5 rounds of >= 0.1 ms batches);
# ~110 s at most (the device budget left was 539 s). Carry: .device/call-d3.tgz, .device/wheels.
# (Lloyd on lloyd-sample5b.json, the 40 sample-5 shapes call 2 did not reach: left for a later call.)
R=bench/results/2026-12-06-library-kmeans-23
L=.device/kpkg-d3/cake_library/library
rm -rf .device/kpkg-d3 && tar xzf .device/call-d3.tgz -C .device
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
timeout 100 python3 bench/library/autotune_noise.py --library $L --rows $R/rows.json --max-ms 0.02 \
  > $OUT/noise.jsonl 2> $OUT/noise.err; echo "autotune_noise rc=$?" >> $OUT/gpu.txt
tail -1 $OUT/noise.jsonl | cut -c1-400
