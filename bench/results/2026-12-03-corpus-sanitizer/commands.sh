#!/bin/bash
# Session 18 call 2: the verify corpus's remaining buggy classes under compute-sanitizer
CS=$(which compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
python3 bench/verify-corpus/gpu/run_gpu.py --cake-run build/bin/cake-run --out $OUT \
  --only "$(cat bench/results/2026-12-03-corpus-sanitizer/only.txt)" --sanitize auto \
  --compute-sanitizer "$CS" --timeout 20 --budget 420 > $OUT/run.log 2>&1
tail -40 $OUT/run.log
