#!/usr/bin/env python3
"""The KDA task's seed (agent/tasks/kda.json): libraries/kda/recurrent.py's simplest variant, as
generated, nothing edited (agent/tests/test_kda_task.py checks that kda.mlir is this output).

    python3 agent/tasks/seeds/kda_seed.py > agent/tasks/seeds/kda.mlir

Chunks of 16 tokens and one state column per thread: the smallest chunk and no sharing of a
token's loads between columns (8 blocks per sequence and head). The family's two parameters
change the IR's structure (unrolled channel groups, state registers, constants), not values a
``{{expr}}`` placeholder could carry, so the task has no tunables (docs/Tasks.md).
"""
import os
import sys

KDA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "libraries", "kda")
PARAMS = {"chunk": 16, "cpt": 1}


def generate():
    sys.path.insert(0, os.path.abspath(KDA))
    try:
        import recurrent
    finally:
        sys.path.pop(0)
    return recurrent.generate(PARAMS)


if __name__ == "__main__":
    sys.stdout.write(generate())
