#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
# Device tool, carrying .device/kpkg and .device/wheels:
# gpu: export LIB=.device/kpkg/cake_library/library R=bench/results/2026-12-02-library-kmeans-6
# gpu: CONFIGS='tcd_*_s[48]*,tcd_*_tf' TAG=tcdnew bash bench/library/run_h200.sh tune 0 420
# gpu: ONLY=$R/stale.json TAG=stale bash bench/library/run_h200.sh tune 0 420
# gpu: python3 bench/library/diag_tiny.py $LIB /tmp/cake-anchors
# gpu: timeout 560 bash bench/library/run_h200.sh final 0 210
# gpu: timeout 330 bash bench/library/run_h200.sh final 210 210; timeout 220 bash bench/library/run_h200.sh lloyd 0 60
# gpu: ONLY=$R/recheck-tcd.json TAG=recheck bash bench/library/run_h200.sh final 0 420
# gpu: ONLY=$R/recheck-lloyd.json TAG=recheck bash bench/library/run_h200.sh lloyd 0 60
# stale.json:
# here: finalists.py libraries/kmeans/table.json --stale-vs ../2026-12-02-library-kmeans-5/tune-{lanes3,tcd,finalists}-0.json
# The table: the fifth build's, with tune-tcdnew and tune-stale merged (merge_tune.py; its
# `source` lists every input). The numbers table in README.md:
# here: python3 bench/library/rows_table.py rows.json --before ../2026-12-02-library-kmeans-5/rows.json
