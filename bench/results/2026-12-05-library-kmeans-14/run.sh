#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines run on the GPU machine through the device tool; "# here:" lines on this machine.
R=bench/results/2026-12-05-library-kmeans-14
# here: python3 bench/library/merge_tune.py --out libraries/kmeans/table.json libraries/kmeans/table.json \
#         bench/results/2026-12-04-library-kmeans-13/tune-probe-0.json
# here: .device/klib/library.json's "table" = libraries/kmeans/table.json
# here: agent/cake library export --library .device/klib --out .device/kpkg
# here: python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-b14
# here: (cd .device && tar czf call-b14.tgz kpkg-b14)
# gpu: FINAL_S=540 bash $R/call1.sh   (carry .device/call-b14.tgz, .device/wheels; got an H100) -> final-b14-0.*
python3 bench/library/rows_table.py $R/final-b14-0.json --before bench/results/2026-12-04-library-kmeans-12/rows.json > $R/rows-table-b14.md
# here: .device/kpkg-diag = .device/kpkg without kernels, plus the pad kernels and the routed and staged kernels of
#         call2.sh's shapes (diag_pad.py's patterns); (cd .device && tar czf call-diag.tgz kpkg-diag)
# gpu: bash $R/call2.sh   (carry .device/call-diag.tgz) -> diag-pad.log
# gpu: bash $R/call3.sh   (the same carry) -> ncu-*.txt
# here: python3 bench/library/merge_tune.py --out libraries/kmeans/table.json libraries/kmeans/table.json \
#         bench/results/2026-12-04-library-kmeans-13/tune-retime-h100-0.json \
#         bench/results/2026-12-04-library-kmeans-13/tune-sweep-below-h100-0.json
# here: .device/klib/library.json's "table" = libraries/kmeans/table.json; export to .device/kpkg;
#         prune_package.py --package .device/kpkg --out .device/kpkg-b15; (cd .device && tar czf call-b15.tgz kpkg-b15)
# gpu: FINAL_S=545 bash $R/call4.sh   (carry .device/call-b15.tgz, .device/wheels; an H100) -> final-b15-0.*
cp $R/final-b15-0.json $R/rows.json
python3 bench/library/rows_table.py $R/rows.json --before $R/final-b14-0.json > $R/rows-table.md
python3 bench/library/heldout_gap.py $R/rows.json
# here: python3 $R/cs_build.py, then python3 $R/cs_build2.py: build.compile_one the tcd cs
#         variants {"r": 1, "kn": ceil(K/8), "v": .., "cs": D rounded up to 32, "tt": 1/4/16, then 6/10/12/16/32}
#         into .device/klib/kernels, describe() them into .device/klib/library.json's variants (the table unchanged),
#         export to .device/kpkg-cs, prune_package.py --grid $R/cs-grid.json --only $R/cs-only.json -> .device/kpkg-cs2
# gpu: TUNE_S=200 bash $R/call5.sh   (carry .device/call-cs.tgz) -> tune-cs-0.*
# gpu: TUNE_S=150 bash $R/call6.sh   (the same, built from cs2-*.json) -> tune-cs2-0.*
python3 $R/compare.py   # the README's card, staleness and build 15 vs 14 figures
