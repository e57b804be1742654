#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# Each GPU call's commands are in this folder: call1/commands.sh (the end-to-end layer check,
# BadInputTest, anchors and edges against FlashKDA) and call2/commands.sh (every variant timed,
# CAKE alone, carrying .device/kda).
