#!/bin/bash
# Session 20 call 9: every variant timed on the grid (CAKE alone, the new launcher), to see
# which variant wins the small cases (a routing question, decided on the tuned cases only).
mkdir -p $OUT/all
OUT=$OUT/all LIB=.device/kda-lpt NOANCHORS=1 TIME=all timeout 400 bash bench/kda/run_h200.sh grid | tail -3
