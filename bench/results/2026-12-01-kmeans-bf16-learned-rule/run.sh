#!/usr/bin/env bash
# The command was not recorded; see README.md.
# bench/results/2026-12-01-learned-rule-kmeans/README.md (task B)
# and its run.sh record the run that wrote these files.
