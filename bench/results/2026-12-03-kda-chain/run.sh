#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# Session 19:
# gpu: bash .device/s19_ncu.sh                                              # call1
# gpu: bash bench/results/2026-12-03-kda-chain/call2.sh                     # old library
# gpu: bash bench/results/2026-12-03-kda-chain/call3.sh                     # reordered library
# gpu: bash bench/results/2026-12-03-kda-chain/call4.sh
# gpu: bash bench/results/2026-12-03-kda-chain/call5.sh                     # its files were lost
# Session 20:
# gpu: bash bench/results/2026-12-03-kda-chain/call6.sh                     # -> call6/
# gpu: python3 bench/kda/host_profile.py --library .device/kda-lpt          # call6b/host/ (ad hoc, in a warm call)
# gpu: bash bench/results/2026-12-03-kda-chain/call7.sh                     # -> call7/
# gpu: bash bench/results/2026-12-03-kda-chain/call8.sh                     # -> call8/
# gpu: bash bench/results/2026-12-03-kda-chain/call9.sh                     # -> call9/all/
# gpu: bash bench/results/2026-12-03-kda-chain/call10.sh                    # -> call10/ab/
# call10/anchors/, a second call (its command is in PREDICTION.md):
# gpu: OUT=$OUT/anchors LIB=.device/kda-short TIME=routed FLAON=none bash bench/kda/run_h200.sh anchors,edges,grid
