#!/usr/bin/env bash
# The command was not recorded; see README.md.
