#!/bin/bash
# Session 19 call 2: old (.device/kda, HEAD) against new (.device/kda-new, the reordered chain), CAKE alone
for L in kda kda-new; do
  mkdir -p $OUT/$L
  OUT=$OUT/$L LIB=.device/$L NOANCHORS=1 TIME=all bash bench/kda/run_h200.sh anchors,edges > /dev/null 2>&1
  echo "== $L"; grep -E "^\[[0-4]\]|correct:" $OUT/$L/kda-anchors-edges.log | sed -E 's/rec_c[0-9]+_p[0-9] [0-9.na]+ \([0-9.e-]+\) //g'
done
