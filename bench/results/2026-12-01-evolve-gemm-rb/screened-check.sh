# Screened-out gemm_rb candidates measured directly (same call as generation 2).
for n in c1 c2; do for s in M=2048,N=2048,K=2048 M=1000,N=1003,K=997 M=65,N=130,K=33; do
  printf "%s %s " $n $s
  .device/evo/gemm_rb-g2/cake-run --cubin .device/evo/extra/$n.cubin --manifest .device/evo/extra/$n.json --sizes $s --seed 17 --ref .device/evo/extra/gemm_ref.cubin --rtol 1e-5 --iters 50 --timeout 60 --kernel gemm | tail -1 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print({k: v for k, v in d.items() if k in ('status', 'error', 'time_ms')})"
done; done
