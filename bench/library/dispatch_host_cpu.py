#!/usr/bin/env python3
"""Host cost of the generated C++ dispatcher on a CPU machine, against the fake CUDA driver:
the ctypes call and the CPython entry points (_cake_native, dispatch/PyEntry.c) paired in one
process, in alternating rounds (median of the rounds' microseconds per call).

    cc -O2 -shared -fPIC -I$CUDA_HOME/include agent/tests/data/fake_libcuda.c -o /tmp/fake/libcuda.so.1
    LD_LIBRARY_PATH=/tmp/fake python3 bench/library/dispatch_host_cpu.py PKG/cake_library/library
    LD_LIBRARY_PATH=/tmp/fake perf record -g python3 bench/library/dispatch_host_cpu.py PKG/... --calls 200000

Without $FAKE_CUDA_LOG the fake driver's launches return at once, so this is the dispatcher's own
cost plus the foreign call, not what a real driver adds per launch (session 9: ~4.7 us per driver
call on the H200 host, from rows.json's host_us_dispatch). Prints one JSON object per shape.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "libraries", "runtime"))
from cake_library import native  # noqa: E402

# (B, N, D, K, dtype code): tiny, ragged D with staging, large fp16, wide fp32.
SHAPES = ((2, 25, 3, 13, 0), (3, 700, 61, 96, 1), (1, 100000, 128, 1000, 0), (2, 300, 600, 40, 2))
X, C, CSQ, OUT = 0x100000, 0x200000, 0x300000, 0x400000


def per_call_us(f, args, calls):
    import time
    t0 = time.perf_counter()
    for _ in range(calls):
        f(*args)
    return (time.perf_counter() - t0) / calls * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library", help="an exported package's cake_library/library folder")
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args()
    lib = native.load(args.library)
    if lib is None:
        sys.exit(f"dispatch_host_cpu: no libcake_library.so in {args.library}")
    arms = {"ctypes": lib._assign_ctypes}
    if lib.entry is not None:
        arms["cpython"] = lib.assign_coded
    else:
        print("dispatch_host_cpu: no _cake_native in the package (built by the export where "
              "CPython >= 3.10's headers are): ctypes only", file=sys.stderr)
    for B, N, D, K, dtype in SHAPES:
        call = (X, C, CSQ, OUT, B, N, D, K, dtype, None)
        try:
            lib.assign_coded(*call)
        except ValueError as e:               # a library without this dtype or D
            print(json.dumps({"shape": [B, N, D, K, dtype], "error": str(e)}))
            continue
        times = {arm: [] for arm in arms}
        for r in range(args.rounds):
            for arm in (list(arms) if r % 2 == 0 else list(arms)[::-1]):
                times[arm].append(per_call_us(arms[arm], call, args.calls))
        med = {arm: sorted(t)[len(t) // 2] for arm, t in times.items()}
        row = {"shape": [B, N, D, K, dtype], "kernel": lib.route(B, N, D, K, list(native.DTYPE_CODES)[dtype])[0]}
        row.update({arm + "_us": round(v, 3) for arm, v in med.items()})
        if "cpython" in med:
            row["ctypes_over_cpython"] = round(med["ctypes"] / med["cpython"], 2)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
