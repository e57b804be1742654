#!/bin/bash
# Session 19 call 4: longest-first sequence order in pass 2 (.device/kda-lpt) against HEAD~ (.device/kda), CAKE alone, routed variant
for L in kda kda-lpt; do
  mkdir -p $OUT/$L
  OUT=$OUT/$L LIB=.device/$L NOANCHORS=1 TIME=routed bash bench/kda/run_h200.sh anchors,edges,grid > /dev/null 2>&1
  echo "== $L"; grep -E "correct:" $OUT/$L/kda-anchors-edges-grid.log
done
python3 - <<'PY'
import json, math, os
out = os.environ["OUT"]
a = json.load(open(f"{out}/kda/rows-anchors-edges-grid.json"))
b = json.load(open(f"{out}/kda-lpt/rows-anchors-edges-grid.json"))
logs = {"anchors": [], "grid": [], "heldout": []}
for ra, rb in zip(a, b):
    if ra.get("cake_ms") and rb.get("cake_ms"):
        key = ra.get("seq_lens", ra.get("T"))
        r = ra["cake_ms"] / rb["cake_ms"]
        s = ra.get("set") if ra.get("set") != "grid" else ("grid" if ra.get("tuned") else "heldout")
        logs[s].append(math.log(r))
        print(f"{s:8s} H{ra['H']:3d} {str(key)[:60]:60s} old {ra['cake_ms']:.3f} new {rb['cake_ms']:.3f} x{r:.3f} ok {rb.get('correct')}")
for s, l in logs.items():
    if l: print(s, "geomean old/new", round(math.exp(sum(l) / len(l)), 4), len(l))
PY
