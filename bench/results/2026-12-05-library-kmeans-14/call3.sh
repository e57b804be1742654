#!/bin/bash
# Call 3 (session 34; the same carry as call 2): Nsight Compute on the small-K, large-N shape at an
# aligned D (no staging copy), for the two kernel kinds call 2 timed there: tcd (mma.sync from
# the user's tensors, 62.6 us) and the persistent split-D wgmma (sd1, TMA). Which limit each hits.
rm -rf .device/kpkg-diag && tar xzf .device/call-diag.tgz -C .device
L=.device/kpkg-diag/cake_library/library
for k in km_bf16_tcd_r2_n8_v8 km_bf16_sd1_k128_w2_s4_p km_bf16_mma_d160_r16_t64; do
  timeout 120 ncu --clock-control none --kernel-name regex:"${k#km_bf16_}" --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis \
    python3 bench/library/profile_pad.py $L 2 120214 152 71 bfloat16 $k > $OUT/ncu-$k.txt 2>&1
  grep -E "Duration|Throughput|Registers|Achieved Occupancy|Theoretical Occupancy|Block Size|Grid Size|Shared Memory Config|Dynamic Shared|Stall|Warp Cycles Per Issued|L2 Hit|Waves" $OUT/ncu-$k.txt | head -40
done
