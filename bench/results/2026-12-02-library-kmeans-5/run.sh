#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders (G,
# <task>, ...), elisions, another working directory, inputs only the GPU steps or that session
# had, or tracked files (profiles, tables) rewritten from the state of the repository then.
# Device tool, carrying .device/kpkg and .device/wheels:
# gpu: LIB=.device/kpkg/cake_library/library CONFIGS='lanes_*' TAG=lanes3 bash bench/library/run_h200.sh tune 0 420
# gpu: export LIB=.device/kpkg/cake_library/library; CONFIGS='tcd_*' TAG=tcd bash bench/library/run_h200.sh tune 0 420; \
# gpu:   ONLY=bench/results/2026-12-02-library-kmeans-5/finalists.json TAG=finalists bash bench/library/run_h200.sh tune 0 420
# gpu: LIB=.device/kpkg/cake_library/library timeout 560 bash bench/library/run_h200.sh final 0 210
# gpu: LIB=.device/kpkg/cake_library/library timeout 500 bash bench/library/run_h200.sh final 210 210
# gpu: LIB=.device/kpkg/cake_library/library timeout 215 bash bench/library/run_h200.sh lloyd 0 60
# The table: `merge_tune.py --drop lanes_` on session 10's table, then lanes3, tcd and finalists
# merged in (libraries/kmeans/table.json `source`). finalists.json from:
# here: bench/library/finalists.py libraries/kmeans/table.json --below-ms 0.1 --skip lanes,tcd
