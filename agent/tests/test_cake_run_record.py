"""cake-run's record end to end under the fake CUDA driver (agent/tests/data/fake_libcuda.c): a
real cubin and manifest, every driver call answered by the fake, the record parsed as the harness
parses it. Session 46's GPU call lost 329 of 330 measurements to a record whose "device" held
stack garbage (json::Value(const char *) keeps a reference, and the name buffer was gone when the
record was written): the parent could not parse the worker's record."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from tests import util


@util.needs_tools
class CakeRunRecordTest(unittest.TestCase):
    def test_record_under_the_fake_driver_names_the_device(self):
        runner = os.path.join(util.BIN, "cake-run")
        if not os.access(runner, os.X_OK) or not util.have_cuda_headers() or not shutil.which("cc") \
                or not shutil.which("ptxas", path=os.environ.get("PATH", "") + os.pathsep
                                    + os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin")):
            self.skipTest("no cake-run, cuda.h, C compiler or ptxas")
        with tempfile.TemporaryDirectory() as tmp:
            fake = util.fake_cuda_driver(tmp)
            cubin, manifest = os.path.join(tmp, "k.cubin"), os.path.join(tmp, "k.json")
            subprocess.run([os.path.join(util.BIN, "cake-translate"), os.path.join(util.ROOT, "examples", "vector_add.mlir"),
                            "--emit=cubin", "-o", cubin, "--manifest", manifest], check=True,
                           capture_output=True)
            env = dict(os.environ, LD_LIBRARY_PATH=fake)
            proc = subprocess.run([runner, "--cubin", cubin, "--manifest", manifest, "--sizes", "N=1000",
                                   "--iters", "3", "--timeout", "30"], capture_output=True, text=True, env=env)
            record = json.loads(proc.stdout)
            self.assertEqual(record["device"], "fake", proc.stdout[:400])
            self.assertNotEqual(record["status"], "launch_failure", record.get("error"))
            self.assertEqual(record["driver_version"], 12080)
            # The fake's events always say 1 ms: warm-up stops at --warmup-ms' 25 rounds.
            self.assertEqual((record["timer"], record["warmup_ms"], record["launches_per_replay"]),
                             ("events", 25, None))
            # --timer graph: launches captured once, the graph replayed --iters times after one
            # untimed replay; the time is per launch (1 ms over the replay's launches).
            log = os.path.join(tmp, "calls.jsonl")
            proc = subprocess.run([runner, "--cubin", cubin, "--manifest", manifest, "--sizes", "N=1000",
                                   "--iters", "3", "--timeout", "30", "--timer", "graph", "--warmup-ms", "4"],
                                  capture_output=True, text=True, env=dict(env, FAKE_CUDA_LOG=log))
            record = json.loads(proc.stdout)
            self.assertNotEqual(record["status"], "launch_failure", record.get("error"))
            with open(log) as f:
                calls = [json.loads(line)["call"] for line in f]
            per = record["launches_per_replay"]
            self.assertEqual((record["timer"], record["warmup_ms"], calls.count("cuGraphLaunch")), ("graph", 4, 4))
            self.assertEqual(calls.count("cuStreamBeginCapture"), 1)
            begin, end = calls.index("cuStreamBeginCapture"), calls.index("cuStreamEndCapture")
            self.assertEqual(calls[begin + 1:end], ["cuLaunchKernel"] * per)
            self.assertAlmostEqual(record["time_ms"], 1.0 / per)


if __name__ == "__main__":
    unittest.main()
