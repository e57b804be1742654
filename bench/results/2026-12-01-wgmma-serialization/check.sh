# Direct check of cake-tactic-tensorize{buffers, fastpath, unroll} variants on the kmeans_fp16 seed.
# Usage (GPU machine, .device carried): bash .device/tz4/check.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
for n in ${NAMES:-b32}; do
  for s in B=32,N=16384,K=1024 B=4,N=10007,K=1000 B=1,N=4099,K=37; do
    printf "%s %s " $n $s
    .device/tz4/cake-run --cubin .device/tz4/$n.cubin --manifest .device/tz4/$n.json --sizes $s --seed 13 --ref .device/tz4/kmeans_fp16_ref.cubin --rtol 1e-5 --iters 50 --timeout 60 --kernel kmeans_fp16 | tail -1 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print({k: v for k, v in d.items() if k in (\"status\", \"error\") or \"ms\" in k or \"correct\" in k or \"mismatch\" in k})"
  done
done
python3 bench/evolve/anchors.py --flash-kmeans .device/fk --tasks kmeans_fp16 --json $OUT/anchors.json 2>&1 | grep -v Warning
