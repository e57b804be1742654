#!/usr/bin/env python3
"""The KDA case grid: generated with a fixed seed, 20% held out of tuning.

    python3 libraries/kda/grid.py > libraries/kda/grid.json

Cases span what serving sees: one long sequence or a packed batch of many (lengths log-uniform,
1 to 8192, some empty), 1 to 96 heads (powers of two and others), lower_bound mostly -5 (FlashKDA's
range is [-5, 0]) with some in (-5, -1] and some below -5 (gates only the recurrent family serves),
given or zero initial states. Work is capped (tokens x heads <= 2^20, tokens <= 32768) so that the
fp64 reference of a whole grid run stays within a device call.
"""
import json
import math
import random

SEED = 17
COUNT = 48
HELD_OUT = 0.2
MAX_TOKENS = 32768
MAX_WORK = 1 << 20            # tokens x heads
HEADS = (1, 2, 3, 4, 6, 8, 12, 16, 20, 24, 32, 40, 48, 64, 96)


def log_uniform(rng, lo, hi):
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))


def case(rng):
    H = rng.choice(HEADS)
    style = rng.random()
    if style < 0.35:                                   # one sequence
        seq_lens = [log_uniform(rng, 1, MAX_TOKENS)]
    elif style < 0.8:                                  # a packed batch of mixed lengths
        n = log_uniform(rng, 2, 64)
        seq_lens = [0 if rng.random() < 0.05 else log_uniform(rng, 1, 8192) for _ in range(n)]
    else:                                              # many equal lengths (fixed-length batch)
        n = log_uniform(rng, 2, 32)
        seq_lens = [log_uniform(rng, 16, 4096)] * n
    while sum(seq_lens) > MAX_TOKENS or sum(seq_lens) * H > MAX_WORK:
        seq_lens = [max(1, s // 2) if s else 0 for s in seq_lens]
    if sum(seq_lens) == 0:
        seq_lens[0] = 1
    r = rng.random()
    lower_bound = -5.0 if r < 0.7 else (round(rng.uniform(-5.0, -1.0), 2) if r < 0.85
                                        else round(-5.0 * math.exp(rng.uniform(0.1, 3.0)), 1))
    return {"seq_lens": seq_lens, "H": H, "lower_bound": lower_bound, "h0": rng.random() < 0.6}


def generate():
    rng = random.Random(SEED)
    cases = [case(rng) for _ in range(COUNT)]
    held = set(rng.sample(range(COUNT), int(round(HELD_OUT * COUNT))))
    for i, c in enumerate(cases):
        c["heldout"] = i in held
    return {"seed": SEED, "generator": "libraries/kda/grid.py", "cases": cases}


if __name__ == "__main__":
    print(json.dumps(generate(), indent=0))
