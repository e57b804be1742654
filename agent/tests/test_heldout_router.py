"""bench/library's held-out router tools: heldout_finalists.py lists what to time at the grid's
held-out shapes, heldout_regret.py scores a router against what was timed there."""
import json
import os
import subprocess
import sys
import unittest

from tests import util

BENCH = os.path.join(util.ROOT, "bench", "library")
KMEANS = os.path.join(util.ROOT, "libraries", "kmeans")
sys.path.insert(0, BENCH)
import heldout_finalists  # noqa: E402
import heldout_regret  # noqa: E402
from route_cv import load  # noqa: E402
from cake_library.route import Router  # noqa: E402


def heldout_shapes(count):
    with open(os.path.join(KMEANS, "grid.json")) as f:
        return [s for s in json.load(f)["shapes"] if s["heldout"]][:count]


class HeldoutFinalistsTest(unittest.TestCase):
    def test_lists_the_routers_candidates_and_the_neighbours_best_all_legal(self):
        definition = load(KMEANS)
        router = Router(definition)
        shapes = heldout_shapes(12)
        rows = heldout_finalists.finalists(definition, shapes, rank=6, neighbours=4)
        self.assertEqual(len(rows), len(shapes))
        for s, row in zip(shapes, rows):
            key = (s["B"], s["N"], s["D"], s["K"], s["dtype"])
            legal = {v["config"] for v in router.legal(*key)}
            self.assertEqual(len(row["configs"]), len(set(row["configs"])))
            self.assertLessEqual(set(row["configs"]), legal)
            # everything the autotuner would time at 6 candidates is in the list
            self.assertLessEqual({c["config"] for c in router.candidates(*key, 6)}, set(row["configs"]))
            for _, p in router.nearest(*key)[:4]:
                best = min((c for c in p["ms"] if c in legal), key=p["ms"].get, default=None)
                if best:
                    self.assertIn(best, row["configs"])
            self.assertFalse(any((p["dtype"], p["B"], p["N"], p["D"], p["K"]) ==
                                 (s["dtype"], s["B"], s["N"], s["D"], s["K"]) for p in definition["table"]["points"]))


class HeldoutRegretTest(util.TempDir):
    def test_regret_is_the_best_timed_candidate_over_the_best_timed(self):
        definition = load(KMEANS)
        router = Router(definition)
        s = heldout_shapes(1)[0]
        key = (s["B"], s["N"], s["D"], s["K"], s["dtype"])
        cands = [c["config"] for c in router.candidates(*key, 4)]
        ms = {c: 2.0 + i for i, c in enumerate(cands)}   # the router's first is its fastest ...
        ms["other"] = 1.0                                 # ... but something else is twice as fast
        point = {k: s[k] for k in ("dtype", "B", "N", "D", "K")} | {"ms": ms}
        rows = heldout_regret.regrets(router, [point], 4)
        self.assertEqual(rows, [(point, cands[0], 2.0)])
        # a router whose candidates were never timed at the shape: not counted, said so
        untimed = dict(point, ms={"other": 1.0})
        self.assertEqual(heldout_regret.regrets(router, [untimed], 4), [(untimed, None, None)])
        path = os.path.join(self.tmp, "eval.json")
        with open(path, "w") as f:
            json.dump({"points": [point, untimed]}, f)
        out = subprocess.run([sys.executable, os.path.join(BENCH, "heldout_regret.py"), "--eval", path,
                              "--candidates", "1,4"], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("candidates 4: 2 shapes, geomean regret 2.000, best on 0, no measured candidate on 1", out.stdout)

    def test_an_unreadable_evaluation_table_is_one_line_and_exit_1(self):
        path = os.path.join(self.tmp, "bad.json")
        for text in ("{not json", '{"points": [{"B": 1}]}', '{"points": [{"B": 1, "N": 2, "D": 3, "K": 4, '
                     '"dtype": "float16", "ms": {"x": "slow"}}]}'):
            with open(path, "w") as f:
                f.write(text)
            out = subprocess.run([sys.executable, os.path.join(BENCH, "heldout_regret.py"), "--eval", path],
                                 capture_output=True, text=True)
            self.assertEqual(out.returncode, 1, text)
            self.assertTrue(out.stderr.startswith("heldout_regret.py: "), out.stderr)
            self.assertNotIn("Traceback", out.stderr)


if __name__ == "__main__":
    unittest.main()
