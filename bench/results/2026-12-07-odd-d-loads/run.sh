#!/bin/bash
# How this folder's results were made (session 50): no device call, committed data only.
python3 bench/results/2026-12-07-odd-d-loads/load_width.py > bench/results/2026-12-07-odd-d-loads/load_width.txt
cat bench/results/2026-12-07-odd-d-loads/load_width.txt
