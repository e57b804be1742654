"""bench/library/kmeans_bench.py ready_first: the Lloyd phase measures shapes as their prewarm
compiles finish, so one slow compile holds up no shape behind it, and a compile that never
finishes costs at most the cap."""
import os
import sys
import time
import unittest

from tests import util

sys.path.insert(0, os.path.join(util.ROOT, "bench", "library"))
import kmeans_bench  # noqa: E402


class Done:
    """An AsyncResult stand-in that is ready from `at` (a time.time() value) on."""
    def __init__(self, at):
        self.at = at

    def ready(self):
        return time.time() >= self.at


class ReadyFirstTest(unittest.TestCase):
    def test_measured_in_the_order_the_compiles_finish(self):
        t = time.time()
        order = [i for i, _ in kmeans_bench.ready_first([Done(t + 0.9), Done(t + 0.1), Done(t + 0.5)], cap=5)]
        self.assertEqual(order, [1, 2, 0])

    def test_the_lowest_ready_index_goes_first(self):
        t = time.time()
        order = [i for i, _ in kmeans_bench.ready_first([Done(t + 60), Done(t), Done(t)], cap=0.2)]
        self.assertEqual(order[:2], [1, 2])

    def test_a_compile_that_never_finishes_costs_the_cap_once(self):
        t = time.time()
        got = list(kmeans_bench.ready_first([Done(t + 3600), Done(t)], cap=0.3))
        self.assertEqual([i for i, _ in got], [1, 0])
        self.assertGreaterEqual(got[1][1], 0.3)
        self.assertLess(time.time() - t, 2)


if __name__ == "__main__":
    unittest.main()
