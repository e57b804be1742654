#!/usr/bin/env bash
# The command was not recorded; see README.md.
# bench/results/2026-12-01-evolve-kmeans-contract/README.md ("End to end
# with the final compiler") and its run.sh record the run that wrote these files.
