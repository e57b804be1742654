#!/usr/bin/env bash
# The commands of this result (README.md). They ran on the H200 through the device tool, each in
# its own call with the library package of that call's change (since reverted): not re-runnable
# from here as they stand.
# gpu: LIB=.device/kpkg/cake_library/library CONFIGS='tcd_*_x*' TAG=x bash bench/library/run_h200.sh tune 0 0
# gpu: LIB=.device/kpkg/cake_library/library CONFIGS='tcd_*_x*' TAG=x2 bash bench/library/run_h200.sh tune 0 0
# gpu: python3 bench/library/diag_pad.py .device/kpkg/cake_library/library
# gpu: LIB=.device/kpkg/cake_library/library ONLY=bench/results/2026-12-04-library-kmeans-8/pad-finalists.json TAG=pad bash bench/library/run_h200.sh tune 0 0
# gpu: LIB=.device/kpkg/cake_library/library ONLY=bench/results/2026-12-04-library-kmeans-8/pad-finalists.json TAG=pad8 bash bench/library/run_h200.sh tune 0 0
# gpu: (TAG=padfast, padcarry: the same tune with calls 6 and 8's copies)
# gpu: ncu --kernel-name regex:pad --launch-count 1 --clock-control none --section SpeedOfLight --section InstructionStats --section WarpStateStats python3 bench/library/profile_pad.py .device/kpkg/cake_library/library 2 120214 145 71 bfloat16 km_bf16_sd1_k128_w2_s4_p
