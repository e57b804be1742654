#!/bin/bash
# Builds one direct-check variant of the naive kmeans_fp16 seed (agent/tasks/seeds/kmeans_fp16.mlir):
#   direct-make.sh PPB "tensorize options" NAME OUTDIR
# writes OUTDIR/NAME.{mlir,cubin,json,ptxas} and prints ptxas' registers and spills.
set -e
P=$1; O=$2; N=$3; D=${4:-.device/tz2}
mkdir -p "$D"
sed -e "s/{{32 \* PPB}}/$((32*P))/" -e "s/{{PPB}}/$P/g" agent/tasks/seeds/kmeans_fp16.mlir > "$D/seed$P.mlir"
build/bin/cake-opt "$D/seed$P.mlir" --pass-pipeline="builtin.module(cake-tactic-tensorize{$O})" -o "$D/$N.mlir"
build/bin/cake-translate "$D/$N.mlir" --emit=cubin -o "$D/$N.cubin" --manifest "$D/$N.json" --ptxas-log "$D/$N.ptxas"
grep -o "Used [0-9]* registers.*\|[0-9]* bytes spill.*" "$D/$N.ptxas" | tr '\n' ' '; echo " <- $N"
