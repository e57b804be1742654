#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# This folder's commands.sh holds the exact commands: its first part ran here (compile, copy
# cake-run, download the anchors' wheels), the rest on the H200 through the device tool (carrying
# .device/bw-check and .device/wheels).
