#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
# evo.db: the database of the first GPU evolution run (bench/results/2026-11-29-evolve-h200).
# here: agent/cake calibrate --from-db evo.db --profile profiles/h200.json -o /tmp/h200-evo.json
