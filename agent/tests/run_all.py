#!/usr/bin/env python3
"""Runs every harness unit test (unittest discovery over agent/tests), then names the skipped
tests with their reasons and the failed ones with the last line of their tracebacks, after
unittest's summary: a CI log that keeps only the tail of the output (test/Agent/
agent-unittests.test's FileCheck dump) still says which test failed and why. Exit status:
unittest's.

    python3 agent/tests/run_all.py      # from anywhere; CAKE_BUILD_DIR as for the tests
"""
import os
import sys
import unittest

AGENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    sys.path.insert(0, AGENT)
    suite = unittest.defaultTestLoader.discover(os.path.join(AGENT, "tests"), top_level_dir=AGENT)
    result = unittest.TextTestRunner().run(suite)
    sys.stdout.flush()
    for test, why in result.skipped:           # what this machine lacks, for a CI log's reader
        print(f"skipped: {test.id()}: {why[:200]}", file=sys.stderr, flush=True)
    for test, trace in result.failures + result.errors:
        last = next((line for line in reversed(trace.strip().splitlines()) if line.strip()), "")
        print(f"failed: {test.id()}: {last.strip()[:300]}", file=sys.stderr, flush=True)
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
