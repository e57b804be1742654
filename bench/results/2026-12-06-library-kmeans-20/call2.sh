#!/bin/bash
# Call 2 (session 40), after the router's candidates got cheaper (expressions compiled, constraints
# evaluated once per distinct launch sizes, one ranking for route and candidates): (1) the first
# call of 3 fresh small shapes under cProfile, with autotuning (4 candidates) and without
# (CAKE_AUTOTUNE=1), each in a fresh process; (2) autotune_check on the 20 fresh shapes of call 1;
# (3) the grid and probe finals of call 1 again, with the committed code.
R=bench/results/2026-12-06-library-kmeans-20
rm -rf .device/kpkg-b21 && tar xzf .device/call-b21.tgz -C .device
for n in 4 1; do
CAKE_AUTOTUNE=$n python3 - <<'PY' > $OUT/profile-$n.log 2>&1
import cProfile, pstats, sys, time, os, torch
sys.path.insert(0, "libraries/runtime"); sys.path.insert(0, "bench/library")
from cake_library.kmeans import KMeansLibrary
from kmeans_bench import make_inputs
lib = KMeansLibrary(".device/kpkg-b21/cake_library/library")
gen = torch.Generator(device="cuda")
shapes = [dict(B=5, N=220, D=3, K=44, dtype="bfloat16"), dict(B=4, N=3767, D=9, K=6, dtype="float16"),
          dict(B=1, N=5579, D=2, K=107, dtype="float32")]
torch.zeros(1, device="cuda"); torch.cuda.synchronize()
for i, s in enumerate(shapes):
    gen.manual_seed(i)
    x, c, csq, _ = make_inputs(torch, s, False, gen)
    torch.cuda.synchronize()
    pr = cProfile.Profile(); t = time.perf_counter(); pr.enable()
    lib.assign(x, c, c_sq=csq); torch.cuda.synchronize()
    pr.disable(); print(s, "first call %.1f ms" % ((time.perf_counter() - t) * 1e3), "CAKE_AUTOTUNE", os.environ["CAKE_AUTOTUNE"])
    pstats.Stats(pr).sort_stats("tottime").print_stats(8)
PY
tail -c 2500 $OUT/profile-$n.log
done
timeout 120 python3 bench/library/autotune_check.py --library .device/kpkg-b21/cake_library/library \
  --grid $R/probe-grid.json --limit 20 --out $OUT/autotune-check2.json > $OUT/autotune-check2.log 2>&1
tail -2 $OUT/autotune-check2.log
LIB=.device/kpkg-b21/cake_library/library
CAKE_BENCH_SERIAL=0 PREWARM=12 LIB=$LIB TAG=b21c2 timeout 300 bash bench/library/run_h200.sh final 0 0
CAKE_BENCH_SERIAL=0 PREWARM=12 LIB=$LIB GRID=$R/probe-grid.json TAG=probe-c2 timeout 100 bash bench/library/run_h200.sh final 0 0
