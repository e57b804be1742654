#!/bin/bash
# Call 6 (device tool, carrying .device/kpkg-prof, .device/wheels and .device/ws/profile.json):
# Nsight Compute over bench/library/profile_shapes.py.
SITE=/tmp/cake-anchors
[ -d $SITE/flashlib ] || pip install -q --no-deps --target $SITE .device/wheels/*.whl
export TRITON_CACHE_DIR=/tmp/cake-triton-cache
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
mkdir -p $OUT/ncu
timeout 330 $NCU --profile-from-start off --clock-control none --section SpeedOfLight --section Occupancy \
  --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
  python3 bench/library/profile_shapes.py --library .device/kpkg-prof/cake_library/library \
  --anchors $SITE --shapes .device/ws/profile.json > $OUT/ncu/ncu.txt 2> $OUT/ncu/ncu.err
echo rc=$?; grep -c "Section: GPU Speed Of Light" $OUT/ncu/ncu.txt; tail -5 $OUT/ncu/ncu.err
