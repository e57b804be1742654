"""The KMeans library's shape grid: fixed seed, log-uniform sizes, 20% held out of tuning.

    python3 libraries/kmeans/grid.py [--count 420] [--seed 2026] > grid.json

Each shape is {"B", "N", "D", "K", "dtype", "heldout"}. Sizes are drawn log-uniformly (N in
[1, 262144], K in [1, 8192], D in [1, 4096], B in [1, 8]; an input tensor at most 1 GiB and at
most 2 TFLOP per shape, redrawn otherwise); a third of the shapes are "small"
(N <= 4096), a fifth of the sizes are primes or odd numbers, the three dtypes are equally likely.
`heldout` shapes are never measured during tuning: they show whether the routing rule generalizes.
"""
import argparse
import json
import math
import random
import sys

DTYPES = ("float16", "bfloat16", "float32")
MAX_BYTES = 1 << 30      # one input tensor: keeps every shape (and its anchors) in one GPU call
MAX_FLOPS = 2e12


def _is_prime(n):
    return n >= 2 and all(n % p for p in range(2, int(math.isqrt(n)) + 1))


def _log_uniform(rng, lo, hi):
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))


def _roughen(rng, v, lo, hi):
    """Moves a fifth of the values to a nearby prime (or odd number): no hidden divisibility."""
    if rng.random() < 0.2:
        v = max(lo, min(hi, v))
        while not _is_prime(v) and v < hi:
            v += 1
        return v if _is_prime(v) else (v | 1 if v > 1 else v)
    return v


def generate(count=420, seed=2026, heldout=0.2):
    rng = random.Random(seed)
    shapes, seen = [], set()
    while len(shapes) < count:
        small = rng.random() < 1 / 3
        n = _roughen(rng, _log_uniform(rng, 1, 4096 if small else 262144), 1, 262144)
        k = _roughen(rng, _log_uniform(rng, 1, 8192), 1, 8192)
        d = _roughen(rng, _log_uniform(rng, 1, 4096), 1, 4096)
        b = _log_uniform(rng, 1, 8)
        dtype = rng.choice(DTYPES)
        key = (b, n, d, k, dtype)
        el = 4 if dtype == "float32" else 2
        if key in seen or b * max(n, k) * d * el > MAX_BYTES or 2 * b * n * k * d > MAX_FLOPS:
            continue
        seen.add(key)
        shapes.append({"B": b, "N": n, "D": d, "K": k, "dtype": dtype})
    order = list(range(count))
    rng.shuffle(order)
    held = set(order[:int(round(heldout * count))])
    for i, s in enumerate(shapes):
        s["heldout"] = i in held
    return shapes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=420)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    json.dump({"seed": args.seed, "count": args.count, "shapes": generate(args.count, args.seed)},
              sys.stdout, indent=0)
    print()


if __name__ == "__main__":
    main()
