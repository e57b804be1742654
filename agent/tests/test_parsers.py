"""ptxas logs, diagnostics (human and machine form), cost reports, and run_step's outcomes."""
import json
import os
import sys
import time
import unittest

from tests import util
from cake_agent import cost, diagnostics, ptxas
from cake_agent.tools import run_step

PTXAS_LOG = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'gemm' for 'sm_90a'
ptxas info    : Function properties for gemm
    0 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 79 registers, used 1 barriers, 8192 bytes smem
ptxas info    : Compile time = 30.284 ms
"""


class PtxasTest(unittest.TestCase):
    def test_facts(self):
        f = ptxas.parse(PTXAS_LOG, "gemm")
        self.assertEqual((f["registers"], f["spill_stores"], f["spill_loads"], f["smem_bytes"], f["barriers"]),
                         (79, 8, 12, 8192, 1))

    def test_no_barriers_no_smem_means_zero(self):
        f = ptxas.parse("ptxas info    : Used 16 registers\n    0 bytes stack frame, 0 bytes spill stores, "
                        "0 bytes spill loads\n")
        self.assertEqual((f["registers"], f["barriers"], f["smem_bytes"]), (16, 0, 0))
        self.assertIsNone(ptxas.parse("")["registers"])


class DiagnosticsTest(unittest.TestCase):
    def test_text_form(self):
        err = ("k.mlir:31:8: error: 'cake.load' op expected an access of 1, 2, 4, 8 or 16 bytes, got 32 bytes\n"
               "  %a = cake.load ...\n       ^\nk.mlir:31:8: note: see current operation\n"
               "k.mlir:5:18: error: use of undeclared SSA value name\n")
        d = diagnostics.parse("", err, json_mode=False)
        self.assertEqual(len(d), 2)
        self.assertEqual((d[0]["line"], d[0]["op"], d[0]["rule"]), (31, "cake.load", None))
        self.assertTrue(d[0]["message"].startswith("expected an access"))
        self.assertEqual((d[1]["line"], d[1]["op"]), (5, None))
        self.assertIn("line 31: error 'cake.load' expected", diagnostics.compact(d)[0])

    def test_json_form_preferred_when_enabled(self):
        rec = {"rule": "cake.pipeline.parity", "severity": "error", "location": {"line": 12, "col": 3},
               "op": "cake.mbarrier_wait", "message": "wait on the wrong phase", "hint": "use the ring's phase"}
        d = diagnostics.parse("", json.dumps(rec) + "\n", json_mode=True)
        self.assertEqual((d[0]["rule"], d[0]["line"], d[0]["hint"]), ("cake.pipeline.parity", 12, "use the ring's phase"))
        self.assertIn("[cake.pipeline.parity]", diagnostics.compact(d)[0])
        self.assertEqual(diagnostics.parse("", "x.mlir:1:1: error: bad\n", json_mode=True)[0]["line"], 1)


class CostTest(unittest.TestCase):
    def test_predicted_ms_keys(self):
        self.assertEqual(cost.predicted_ms({"predicted_time_s": 0.002}), 2.0)
        self.assertEqual(cost.predicted_ms({"kernels": [{"predicted_ms": 0.5}]}), 0.5)
        self.assertIsNone(cost.predicted_ms({"bound": "memory"}))

    def test_unavailable_without_the_flag(self):
        # A cake-opt whose --help lacks --cake-print-cost (this build's has it: a stand-in, so that the
        # test runs, rather than skips, where the real one has the cost model).
        import shutil
        import tempfile
        from cake_agent.tools import Toolchain
        d = tempfile.mkdtemp(prefix="cake-agent-test-")
        self.addCleanup(shutil.rmtree, d, True)
        with open(os.path.join(d, "cake-opt"), "w") as f:
            f.write("#!" + sys.executable + "\nprint('USAGE: cake-opt [options] <input file>')\n")
        os.chmod(os.path.join(d, "cake-opt"), 0o755)
        tc = Toolchain(d)
        self.assertFalse(tc.features()["cost_report"])
        self.assertEqual(cost.cost(tc, "x.mlir", [{"N": 1}], 10)["status"], "unavailable")


class RunStepTest(util.TempDir):
    def test_outcomes(self):
        py = sys.executable
        self.assertEqual(run_step("s", [py, "-c", "print(1)"], 10).status, "ok")
        r = run_step("compile", [py, "-c", "import sys; sys.exit(3)"], 10)
        self.assertEqual((r.status, r.failure_class), ("error", "compile_error"))
        r = run_step("verify", [py, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"], 10)
        self.assertEqual((r.status, r.failure_class), ("crash", "verify_crash"))
        self.assertIn("signal 11", r.detail())
        r = run_step("run", [os.path.join(self.tmp, "absent")], 10)
        self.assertEqual(r.failure_class, "run_missing")

    def test_timeout_kills_the_process_group(self):
        marker = os.path.join(self.tmp, "child-alive")
        child = self.write("child.py", f"import time\ntime.sleep(1)\nopen({marker!r}, 'w').close()\n")
        parent = self.write("parent.py", "import subprocess, sys, time\n"
                            f"subprocess.Popen([sys.executable, {child!r}])\ntime.sleep(30)\n")
        t0 = time.monotonic()
        r = run_step("compile", [sys.executable, parent], 0.5)
        self.assertEqual(r.failure_class, "compile_timeout", r.stderr)
        self.assertLess(time.monotonic() - t0, 5)
        time.sleep(1.5)
        self.assertFalse(os.path.exists(marker), "the grandchild survived the timeout")


if __name__ == "__main__":
    unittest.main()
