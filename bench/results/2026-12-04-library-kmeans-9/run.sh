#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines ran on the GPU machine through the device tool (a lent H200, .device/ carried,
# $OUT the folder whose files came back); they cannot be re-run from here.
# "# here:" lines ran on this machine but are not for re-running as written: placeholders,
# inputs only the GPU steps or that session had, or tracked files rewritten from the state of
# the repository then.
R=bench/results/2026-12-04-library-kmeans-9
# Builds: the 64-bit library of build 7's families and its 32-bit copy (call 1), then the
# library with both widths (calls 2-4), each exported (agent/cake library export) and pruned to
# the cubins the calls launch (the carry limit is 64 MiB).
# here: python3 libraries/kmeans/build.py --out .device/klib2 --tools build/bin --jobs 2
# here: agent/cake library export --library .device/klib2 --out .device/kpkg2
# Call 1, carrying .device/ab (kA: 64-bit package, kB: 32-bit package, top4.json) and .device/wheels:
# gpu: for t in "0 i64 .device/ab/kA" "0 i32 .device/ab/kB" "210 i32 .device/ab/kB" "210 i64 .device/ab/kA"; do set -- $t; LIB=$3/cake_library/library ONLY=.device/ab/top4.json TAG=$2 bash bench/library/run_h200.sh tune $1 210; done
# gpu: python3 .device/ab/diag2.py; python3 .device/ab/diag3.py
# The table: build 7's with call 1 merged (the 32-bit times renamed to <config>_i32):
# here: python3 bench/library/merge_tune.py --out libraries/kmeans/table.json <build 7 table> $R/tune-i64-0.json $R/tune-i64-210.json $R/tune-i32-0-twins.json $R/tune-i32-210-twins.json
# Calls 2-4, carrying .device/kpkg2 and .device/wheels:
# gpu: LIB=.device/kpkg2/cake_library/library TAG=i32 bash bench/library/run_h200.sh final 0 210
# gpu: LIB=.device/kpkg2/cake_library/library TAG=twin bash bench/library/run_h200.sh final 0 210
# gpu: LIB=.device/kpkg2/cake_library/library TAG=twin bash bench/library/run_h200.sh final 210 210
# Calls 5-8 (the miscompile), carrying .device/ab and .device/bis2 (cubins from bisect/make.sh,
# or the six kernels rebuilt with the workaround):
# here: bash $R/bisect/make.sh .device/bis2
# gpu: python3 .device/bis2/run.py      # bisect/check_fixed.py is call 8's version
# CPU checks quoted in README.md (here; cuobjdump from the CUDA toolkit or its pip wheel):
# here: 64-bit PTX unchanged: for f in examples/*.mlir and every 25th .device/klib/kernels/*.mlir: cake-translate $f --emit=ptx with the previous and the new build, cmp (56 files, 0 differ)
# here: the workaround's static cost: for every 6th *_i32 wgmma/splitd/mma kernel of .device/klib2 (72): cake-translate K.mlir --emit=cubin, cuobjdump -sass | grep -cE '/\*[0-9a-f]{4}\*/', summed against the measured cubins (63544 -> 64016)
python3 -c "import json; a = json.load(open('$R/final-twin-0.json')); b = json.load(open('$R/final-twin-210.json')); json.dump(a + b, open('$R/rows.json', 'w'), indent=0)"
python3 bench/library/rows_table.py $R/rows.json --before bench/results/2026-12-02-library-kmeans-7/rows.json
