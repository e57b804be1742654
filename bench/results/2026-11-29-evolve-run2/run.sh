#!/usr/bin/env bash
# The command was not recorded; see README.md.
# bench/results/2026-11-29-evolve-h200/README.md ("Run 2") records the runs
# that wrote these files.
