#!/usr/bin/env bash
# The commands this folder's README.md records, run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../../.."
python3 - <<'PY'
import subprocess, time, statistics
for ex in ["hopper_gemm", "kmeans_hopper", "gemm", "vector_add"]:
    ts = []
    for _ in range(11):
        t = time.perf_counter()
        subprocess.run(["build/bin/cake-translate", f"examples/{ex}.mlir", "--emit=cubin",
                        "-o", "/tmp/ct.cubin", "--manifest", "/tmp/ct.json"], check=True)
        ts.append(time.perf_counter() - t)
    print(ex, statistics.median(ts), min(ts), max(ts))
PY
