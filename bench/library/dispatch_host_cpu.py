#!/usr/bin/env python3
"""Host cost of the generated C++ dispatcher on a CPU machine, against the fake CUDA driver.

    cc -O2 -shared -fPIC -I$CUDA_HOME/include agent/tests/data/fake_libcuda.c -o /tmp/fake/libcuda.so.1
    LD_LIBRARY_PATH=/tmp/fake python3 bench/library/dispatch_host_cpu.py PKG/cake_library/library
    LD_LIBRARY_PATH=/tmp/fake perf record -g python3 bench/library/dispatch_host_cpu.py PKG/... --calls 200000

Prints microseconds per cake_library_kmeans_assign (ctypes call included) for a few shapes. The
fake driver's calls cost only their logging to /dev/null, so this is the dispatcher's own cost
plus ctypes, not what a real driver adds per launch (session 9: ~4.7 us per driver call on the
H200 host, from rows.json's host_us_dispatch).
"""
import argparse
import ctypes
import os
import time

SHAPES = ((2, 25, 3, 13, 0), (3, 700, 61, 96, 1), (1, 100000, 128, 1000, 0), (2, 300, 600, 40, 2))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library", help="an exported package's cake_library/library folder")
    ap.add_argument("--calls", type=int, default=20000)
    args = ap.parse_args()
    lib = ctypes.CDLL(os.path.join(args.library, "libcake_library.so"))
    lib.cake_library_kmeans_assign.argtypes = ([ctypes.c_uint64] * 4 + [ctypes.c_int64] * 4 +
                                               [ctypes.c_int, ctypes.c_void_p])
    lib.cake_library_error.restype = ctypes.c_char_p
    lib.cake_library_set_kernel_dir(os.path.join(args.library, "kernels").encode())
    f = lib.cake_library_kmeans_assign
    for B, N, D, K, dtype in SHAPES:
        rc = f(0x100000, 0x200000, 0x300000, 0x400000, B, N, D, K, dtype, None)
        t0 = time.perf_counter()
        for _ in range(args.calls):
            f(0x100000, 0x200000, 0x300000, 0x400000, B, N, D, K, dtype, None)
        us = (time.perf_counter() - t0) / args.calls * 1e6
        print(f"B={B} N={N} D={D} K={K} dtype={dtype}: rc {rc} {us:.2f} us per call "
              f"{lib.cake_library_error().decode()[:80]}")


if __name__ == "__main__":
    main()
