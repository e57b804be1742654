"""The Python launcher (libraries/runtime/cake_library/driver.py) against the fake libcuda: each
launch passes that call's values, in the manifest's parameter order, whatever came before."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from tests import test_library

RUNTIME = os.path.join(os.path.dirname(__file__), "..", "..", "libraries", "runtime")

MANIFEST = {"entry": "k", "block": [128, 1, 1], "grid": ["ceildiv(T, 64)", "H", "1"],
            "params": [{"name": "x", "kind": "tensor"}, {"name": "y", "kind": "tensor"},
                       {"name": "n", "kind": "scalar", "dtype": "i64"},
                       {"name": "T", "kind": "symbol"}, {"name": "H", "kind": "symbol"}]}

# Three launches with different values, one with an empty grid (nothing launched), then the
# first values again: the log must show each launch's own values.
CODE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from cake_library import driver
d = driver.Driver()
k = driver.Kernel(d, b"cubin", json.loads(sys.argv[2]))
k.launch({"x": 11, "y": 12}, {"T": 100, "H": 3}, 0, {"n": 5})
k.launch({"x": 21, "y": 22}, {"T": 640, "H": 1}, 0, {"n": 7})
k.launch({"x": 31, "y": 32}, {"T": 0, "H": 2}, 0, {"n": 9})
k.launch({"x": 11, "y": 12}, {"T": 100, "H": 3}, 0, {"n": 5})
"""


@unittest.skipIf(shutil.which("cc") is None, "needs a C compiler for the fake libcuda")
class LauncherTest(unittest.TestCase):
    def test_each_launch_passes_its_own_values(self):
        with tempfile.TemporaryDirectory() as tmp:
            fake = test_library.NativeDispatcherTest.fake_driver(tmp)
            log = os.path.join(tmp, "log.jsonl")
            r = subprocess.run([sys.executable, "-c", CODE, RUNTIME, json.dumps(MANIFEST)],
                               capture_output=True, text=True,
                               env=dict(os.environ, LD_LIBRARY_PATH=fake, FAKE_CUDA_LOG=log,
                                        FAKE_CUDA_PARAMS="5"))
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(log) as f:
                launches = [c for c in map(json.loads, f) if c["call"] == "cuLaunchKernel"]
        self.assertEqual([(c["grid"], c["params"]) for c in launches],
                         [([2, 3, 1], [11, 12, 5, 100, 3]), ([10, 1, 1], [21, 22, 7, 640, 1]),
                          ([2, 3, 1], [11, 12, 5, 100, 3])])


if __name__ == "__main__":
    unittest.main()
