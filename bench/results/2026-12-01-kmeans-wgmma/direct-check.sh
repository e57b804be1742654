# Direct check of cake-tactic-tensorize variants on the kmeans_fp16 seed: each NAME's cubin and
# manifest in DIR (built here with direct-make.sh or cake-translate), against the reference, on the
# task's three shapes; then flash-kmeans in the same call unless ANCHORS=0.
# Usage (GPU machine, DIR and .device/fk carried):
#   DIR=.device/tz2 NAMES="b32 wf8" bash bench/results/2026-12-01-kmeans-wgmma/direct-check.sh
# DIR also holds cake-run and kmeans_fp16_ref.cubin.
D=${DIR:-.device/tz2}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
for n in ${NAMES:-b32}; do
  for s in B=32,N=16384,K=1024 B=4,N=10007,K=1000 B=1,N=4099,K=37; do
    printf "%s %s " $n $s
    $D/cake-run --cubin $D/$n.cubin --manifest $D/$n.json --sizes $s --seed 13 --ref $D/kmeans_fp16_ref.cubin --rtol 1e-5 --iters 50 --timeout 60 --kernel kmeans_fp16 | tail -1 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print({k: v for k, v in d.items() if k in (\"status\", \"error\") or \"ms\" in k or \"correct\" in k or \"mismatch\" in k})"
  done
done
[ "${ANCHORS:-1}" = 0 ] || python3 bench/evolve/anchors.py --flash-kmeans .device/fk --tasks kmeans_fp16 --json $OUT/anchors.json 2>&1 | grep -v Warning
