#!/bin/bash
# Everything session 51's device call needs, from a fresh checkout after scripts/build.sh
# (~15 min of 2 cores): calls S and M's packages and call J5's, and the anchor wheels. Then:
#   device run: bash bench/results/2026-12-07-odd-d-loads/call1-session51.sh
#   carry: .device/callS.tgz .device/callM.tgz .device/callJ5.txz .device/wheels
# (the tree is ~50 MiB and these ~13 MB: under the 64 MiB carry limit, so carry nothing else).
set -e
mkdir -p .device/wheels
ls .device/wheels/flashlib-0.4.0-*.whl .device/wheels/flash_kmeans-0.3.1-*.whl >/dev/null 2>&1 ||
  pip download -q --no-deps -d .device/wheels flashlib==0.4.0 flash-kmeans==0.3.1
bash bench/results/2026-12-07-odd-d-loads/prepareS.sh
bash bench/results/2026-12-07-library-evolve/prepareM.sh
bash bench/results/2026-12-07-lloyd-ahead/prepareJ5.sh
du -ch .device/callS.tgz .device/callM.tgz .device/callJ5.txz .device/wheels | tail -1
