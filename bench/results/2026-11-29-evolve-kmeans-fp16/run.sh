#!/usr/bin/env bash
# The command was not recorded; see README.md.
# bench/results/2026-11-29-evolve-h200/README.md ("The issue's KMeans
# target as a task") records the run that wrote these files.
