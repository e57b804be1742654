#!/usr/bin/env bash
# The command was not recorded; see README.md.
# bench/results/2026-11-29-evolve-h200/README.md records the runs that wrote these
# files (bench/evolve/summarize.py --raw bench/results/2026-11-29-evolve).
