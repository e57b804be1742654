"""bench/library/lloyd_coverage.py: which grid shapes have a Lloyd row under a results tree, and
the list of the others in kmeans_bench's --only format."""
import json
import os
import subprocess
import sys

from tests import util

SCRIPT = os.path.join(util.ROOT, "bench", "library", "lloyd_coverage.py")


def shape(dtype, B, N, D, K, **extra):
    return dict(dtype=dtype, B=B, N=N, D=D, K=K, **extra)


class LloydCoverageTest(util.TempDir):
    def write(self, rel, data):
        path = os.path.join(self.tmp, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(data, f)
        return path

    def run_tool(self, *extra):
        r = subprocess.run([sys.executable, SCRIPT, "--grid", os.path.join(self.tmp, "grid.json"),
                            "--results", os.path.join(self.tmp, "results"), *extra],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def test_latest_correct_rows_count_and_the_rest_is_listed(self):
        a, b, c, d = (shape("float16", 1, 100, 8, 4), shape("bfloat16", 2, 50, 3, 7),
                      shape("float32", 3, 9, 5, 2), shape("float16", 4, 7, 2, 3))
        self.write("grid.json", {"shapes": [dict(s, heldout=False) for s in (a, b, c, d)]})
        row = lambda s, cake, fl, ok=True: dict(s, cake_ms=cake, flashlib_ms=fl, correct=ok)  # noqa: E731
        self.write("results/2026-01-01-x/lloyd-0.json", [row(a, 1.0, 1.02), row(b, 1.0, 3.0)])
        self.write("results/2026-01-02-y/lloyd-0.json", [row(a, 1.0, 4.0)])          # a's latest: 4x
        self.write("results/2026-01-02-y/lloyd-wrong.json", [row(c, 1.0, 9.0, ok=False)])
        self.write("results/2026-01-03-z/lloyd-capture-bug.json", [row(d, 1.0, 2.0)])  # a kept bug run
        self.write("results/2026-01-03-z/lloyd-sample.json", [dict(d, configs=[])])    # a shape list
        out = self.run_tool("--emit-missing", os.path.join(self.tmp, "missing.json"))
        self.assertIn("2 of 4 grid shapes measured", out)
        self.assertIn("3.46x flashlib geomean, min 3.00x, 0 below 1.0x", out)   # sqrt(4 * 3)
        with open(os.path.join(self.tmp, "missing.json")) as f:
            missing = json.load(f)
        self.assertEqual(missing, [dict(c, configs=[]), dict(d, configs=[])])

    def test_bad_grid_or_output_is_one_line_and_exit_1(self):
        self.write("results/x/lloyd-0.json", [])
        for grid in ("missing.json", self.write("bad.json", {"rows": []}),
                     self.write("bad2.json", {"shapes": [{"B": 1}]})):
            r = subprocess.run([sys.executable, SCRIPT, "--grid", os.path.join(self.tmp, grid),
                                "--results", os.path.join(self.tmp, "results")], capture_output=True, text=True)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertTrue(r.stderr.startswith("lloyd_coverage.py: --grid "), r.stderr)
            self.assertNotIn("Traceback", r.stderr)
        self.write("grid.json", {"shapes": [shape("float16", 1, 2, 3, 4, heldout=False)]})
        r = subprocess.run([sys.executable, SCRIPT, "--grid", os.path.join(self.tmp, "grid.json"),
                            "--results", os.path.join(self.tmp, "results"),
                            "--emit-missing", os.path.join(self.tmp, "no", "dir.json")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("lloyd_coverage.py: --emit-missing: ", r.stderr)
        self.assertNotIn("Traceback", r.stderr)
