#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
# Device tool, carrying .device/kpkg and .device/wheels:
# gpu: export LIB=.device/kpkg/cake_library/library R=bench/results/2026-12-02-library-kmeans-7
# gpu: CONFIGS='tcd_r1_n16_*' TAG=n16 bash bench/library/run_h200.sh tune 0 420
# gpu: ONLY=$R/simt-only.json TAG=simt bash bench/library/run_h200.sh tune 0 420
# gpu: bash bench/library/run_h200.sh final 0 210
# gpu: ONLY=$R/rerun-0.json TAG=rerun bash bench/library/run_h200.sh final 0 210; bash bench/library/run_h200.sh final 210 210
# The table: build 6's with tune-n16 and tune-simt merged (merge_tune.py; `source` lists every
# input), `neighbours` 8. The numbers table in README.md:
# here: python3 bench/library/rows_table.py rows.json --before ../2026-12-02-library-kmeans-6/rows.json
