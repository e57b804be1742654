#!/bin/sh
# 10 candidates the way the harness evaluates them: three tool processes each.
B=/work/main/build/bin; K=/work/main/examples/hopper_gemm.mlir; T=$(mktemp -d)
for i in 1 2 3 4 5 6 7 8 9 10; do
  $B/cake-opt $K --cake-verify --cake-diagnostics=json -o /dev/null 2>/dev/null
  $B/cake-opt $K "--cake-print-cost=sizes=M=4096,N=4096,K=4096 json=-" -o /dev/null >/dev/null 2>&1
  $B/cake-translate $K --emit=cubin -o $T/k.cubin --manifest $T/k.json
done
rm -rf $T
