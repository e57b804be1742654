#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
# "# gpu:" lines run on the GPU machine through the device tool; "# here:" lines on this machine.
R=bench/results/2026-12-05-library-kmeans-15
# here: python3 libraries/kmeans/build.py --out .device/klib --tools build/bin --jobs 2 --keep-built
python3 $R/cs_plan.py
# here: agent/cake library export --library .device/klib --out .device/kpkg
# here: python3 bench/library/prune_package.py --package .device/kpkg --out .device/kpkg-cs \
#         --grid $R/cs-grid.json --only $R/cs-only.json; (cd .device && tar czf call-cs.tgz kpkg-cs)
# gpu: bash $R/call1.sh   (carry .device/call-cs.tgz, .device/wheels; got an H100) -> tune-cs-0.*
# here: tune-cs-plan.json = tune-cs-0.json restricted to the plan's configurations (README)
# here: python3 bench/library/merge_tune.py --out libraries/kmeans/table.json <build 15's table> $R/tune-cs-plan.json
# here: build.py again (library.json's table; variants.json copied to libraries/kmeans/)
python3 bench/library/route_cv.py --library .device/klib
# here: export to .device/kpkg; prune_package.py --package .device/kpkg --out .device/kpkg-b16;
#         (cd .device && tar czf call-b16.tgz kpkg-b16)
# gpu (not run: no machine lent): bash $R/call2.sh   (carry .device/call-b16.tgz, .device/wheels) -> final-b16-0.*
# here: the verifier timing (README "Also in this session"): /tmp/cake-opt-old = build/bin/cake-opt built
#         with d112c25's lib/Verify/PathSimulation.cpp, then
farm-bench -n 5 --timeout 200 --vs "/tmp/cake-opt-old examples/kmeans_hopper_f32.mlir --cake-verify -o /dev/null" \
  -- build/bin/cake-opt examples/kmeans_hopper_f32.mlir --cake-verify -o /dev/null
farm-bench -n 5 --timeout 200 --vs "/tmp/cake-opt-old examples/kmeans_hopper.mlir --cake-verify -o /dev/null" \
  -- build/bin/cake-opt examples/kmeans_hopper.mlir --cake-verify -o /dev/null
