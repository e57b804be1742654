#!/usr/bin/env bash
# The command was not recorded; see README.md.
# bench/results/2026-12-01-evolve-kmeans-contract/README.md
# ("kmeans_bf16 with the final compiler") records the run that wrote these files.
