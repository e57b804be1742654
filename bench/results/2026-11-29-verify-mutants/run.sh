#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../../.."
python3 bench/verify_mutants.py
