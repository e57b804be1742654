#!/bin/bash
# Session 20 call 8: the launcher A/B, paired in time: the committed runtime (A, .device/rt-old)
# and the new one (B, the tree's libraries/runtime) alternate, three processes each, same library.
mkdir -p $OUT/launcher
for round in 1 2 3; do
  for side in A B; do
    if [ $side = A ]; then export CAKE_RUNTIME=$PWD/.device/rt-old; else unset CAKE_RUNTIME; fi
    python3 bench/kda/host_profile.py --library .device/kda-lpt --no-cprofile --calls 500 \
      --out $OUT/launcher/$side$round.json > $OUT/launcher/$side$round.log 2>&1
    echo "$side$round rc $?"
  done
done
python3 - <<'PY'
import json, os, statistics
out = os.environ["OUT"] + "/launcher"
rows = {s: [json.load(open(f"{out}/{s}{r}.json")) for r in (1, 2, 3)] for s in "AB"}
for i, case in enumerate(rows["A"][0]):
    a_host = statistics.median(r[i]["host_us_per_call"] for r in rows["A"])
    b_host = statistics.median(r[i]["host_us_per_call"] for r in rows["B"])
    a_ev = statistics.median(r[i]["event_ms"] for r in rows["A"]) * 1e3
    b_ev = statistics.median(r[i]["event_ms"] for r in rows["B"]) * 1e3
    print(f"{str(case['seq_lens'])[:30]:30s} H{case['H']:3d} host us A {a_host:6.1f} B {b_host:6.1f}  "
          f"event us A {a_ev:6.1f} B {b_ev:6.1f}")
PY
