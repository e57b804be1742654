#!/usr/bin/env bash
# Hang reports at block/named barriers (the barrier table) on the GPU machine, .device/ carried.
# Cubins: cake-translate MUTANT.mlir --emit=cubin --chip=sm_90a --hang-timeout-ms=500 ... from the
# corpus that bench/verify_mutants.py --emit-corpus writes (see the results file).
set -u
R=.device/cake-run
H=.device/hang2
run() { echo "### $*"; "$@" > /tmp/rec.json 2> /tmp/err.txt; echo "exit=$?"; cat /tmp/err.txt;
        python3 -c "import json; r=json.load(open('/tmp/rec.json')); print(r['status'], json.dumps(r['hang']))"; }
run $R --cubin $H/tma_multicast--named-barrier-in-branch-0.cubin --manifest $H/tma_multicast--named-barrier-in-branch-0.json --sizes M=4096 --timeout 5 --no-time
run $R --cubin $H/kmeans_mbarrier--named-barrier-in-branch-0.cubin --manifest $H/kmeans_mbarrier--named-barrier-in-branch-0.json --sizes B=1,N=65536,K=4096 --timeout 5 --no-time
run $R --cubin $H/hopper_gemm--named-barrier-in-branch-0.cubin --manifest $H/hopper_gemm--named-barrier-in-branch-0.json --sizes M=512,N=512,K=512 --timeout 5 --no-time
run $R --cubin $H/kmeans_hopper--release-lag-1.cubin --manifest $H/kmeans_hopper--release-lag-1.json --sizes B=1,N=65536,K=4096 --timeout 5 --no-time
run $R --cubin $H/floor_dbg.cubin --manifest $H/floor_dbg.json --sizes B=1,N=1024,K=1000 --timeout 10 --no-time
run $R --cubin $H/floor_dbg.cubin --manifest $H/floor_dbg.json --sizes B=1,N=1024,K=1024 --timeout 10 --iters 5 --ref .device/ref/kmeans_hopper_ref.cubin --ref-entry kmeans_hopper_ref
