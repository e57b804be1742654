#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool ($OUT: the folder whose files came
# back); "# here:" lines ran on this machine.
D=bench/results/2026-12-04-kda-index32
# here: python3 libraries/kda/build.py --out .device/kda
# here: python3 libraries/kda/build.py --out .device/kda32 --index-bits 32
# Call 1 (with the KMeans twin tune of 2026-12-04-library-kmeans-10), carrying .device/kda and .device/kda32:
# gpu: timeout 240 python3 bench/kda/ab.py --a .device/kda --b .device/kda32 --cases anchors,grid --rounds 7 --out $OUT/ab/ab.json
# here: the mixed libraries of call 2: .device/kda with the 6 prep (kdaP32), 6 state (kdaS32) or 4 recurrent
#       (kdaR32) kernels' cubins and manifests taken from .device/kda32 (library.json's manifests replaced to match)
# Call 2 (after the KMeans final's first half), carrying .device/kda and .device/kda{P,S,R}32:
# gpu: for b in P32 S32 R32; do timeout 100 python3 bench/kda/ab.py --a .device/kda --b .device/kda$b --cases anchors --rounds 5 --out $OUT/kda/ab-$b.json; done
grep -h geomean $D/call1/ab/ab.log $D/call2/ab-*.log
