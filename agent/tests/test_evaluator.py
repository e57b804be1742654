"""The evaluator's CPU steps with the real tools, and failures of each step."""
import os
import unittest

from tests import util
from cake_agent.evaluator import Evaluator
from cake_agent.task import load_task
from cake_agent.tools import Toolchain


def task(name):
    return load_task(os.path.join(util.TASKS, name + ".json"))


@util.needs_tools
class EvaluatorTest(util.TempDir):
    def evaluator(self, t, bin_dir=util.BIN):
        return Evaluator(t, Toolchain(bin_dir, util.REFS), os.path.join(self.tmp, "work"))

    def test_seed_compiles_with_facts(self):
        t = task("gemm")
        ev = self.evaluator(t).prepare(t.instantiate(t.start_genome()))
        self.assertEqual(ev.status, "compiled", ev.failure)
        self.assertEqual(ev.cost["status"], "ok")  # cake-print-cost: one report per task shape
        self.assertGreater(ev.cost["predicted_ms"], 0)
        self.assertEqual(len(ev.cost["report"]), len(t.shapes))
        c = ev.compile
        self.assertGreater(c["registers"], 0)
        self.assertEqual(c["smem_bytes"], 2 * 16 * 64 * 4)
        self.assertEqual(c["spill_stores"], 0)
        self.assertTrue(os.path.exists(c["cubin"]))
        self.assertEqual(c["symbols"], ["M", "N", "K"])
        self.assertEqual([s["step"] for s in ev.steps], ["verify", "cost", "compile"])

    def test_verify_error_has_line_and_op(self):
        t = task("vector_add")
        ir = t.instantiate((0, {"BLOCK": 256, "VEC": 4, "UNROLL": 1})).replace("vector<4xf32>", "vector<8xf32>")
        ev = self.evaluator(t).prepare(ir)
        self.assertEqual((ev.status, ev.failure["class"]), ("failed", "verify_error"))
        d = ev.diagnostics[0]
        self.assertEqual(d["op"], "cake.load")
        self.assertEqual(ir.splitlines()[d["line"] - 1].strip()[:14], "%a = cake.load")
        self.assertIn("got 32 bytes", ev.failure["detail"])

    def test_schedule_verifier_runs_before_the_gpu(self):
        # The tiled loop's second barrier removed: the op verifiers accept it, cake-verify does not.
        t = task("gemm")
        ir = t.instantiate(t.start_genome())
        last = ir.rindex("    cake.barrier\n")
        racy = ir[:last] + ir[last + len("    cake.barrier\n"):]
        ev = self.evaluator(t).prepare(racy)
        self.assertEqual((ev.status, ev.failure["class"]), ("failed", "verify_error"))
        self.assertIn("race.missing-barrier", [d["rule"] for d in ev.diagnostics])

    def test_learned_rules_are_loaded_by_default(self):
        # rules/learned/ (cake learn rules --save) comes with the shipped rules/: the register-cap
        # rule learned from kmeans_fp16 stops PPB=32 + tensorize-wgmma-128 at verify.
        tools = Toolchain(util.BIN, util.REFS)
        learned = [r for r in tools.rules if os.sep + os.path.join("rules", "learned") + os.sep in r]
        self.assertTrue(any("wgmma_regs_vector_64xf32_threads1024" in r for r in learned), tools.rules)

    def test_user_learned_rules_are_loaded_from_outside_the_tree(self):
        # cake learn rules --save writes to the user's data folder (never the source tree); the
        # verify step loads it beside rules/ and rules/learned/.
        from unittest import mock
        from cake_agent import tools as tools_mod
        folder = os.path.join(self.tmp, "user-rules")
        os.makedirs(folder)
        rule = os.path.join(folder, "mine.pdl")
        with open(rule, "w") as f:
            f.write("// a learned rule\n")
        with mock.patch.dict(os.environ, {"CAKE_USER_RULES": folder}):
            self.assertEqual(tools_mod.user_rules_dir(), folder)
            self.assertIn(rule, Toolchain(util.BIN, util.REFS).rules)
        with mock.patch.dict(os.environ, {"XDG_DATA_HOME": os.path.join(self.tmp, "data")}):
            os.environ.pop("CAKE_USER_RULES", None)
            self.assertEqual(tools_mod.user_rules_dir(),
                             os.path.join(self.tmp, "data", "cake", "rules", "learned"))

    def test_rules_as_data_run_in_the_verify_step(self):
        # A rule file that flags every cake.barrier: the seed now fails with that rule's id.
        rule = self.write("no-barrier.mlir", """pdl.pattern @no_barrier : benefit(1) {
  %root = pdl.operation "cake.barrier"
  pdl.rewrite %root {
    %rule = pdl.attribute = "rule.no-barrier"
    %message = pdl.attribute = "no barriers here"
    %hint = pdl.attribute = "remove it"
    pdl.apply_native_rewrite "cakeReport"(%root, %rule, %message, %hint : !pdl.operation, !pdl.attribute, !pdl.attribute, !pdl.attribute)
  }
}
""")
        t = task("gemm")
        tools = Toolchain(util.BIN, util.REFS)
        tools.rules.append(rule)
        ev = Evaluator(t, tools, os.path.join(self.tmp, "work")).prepare(t.instantiate(t.start_genome()))
        self.assertEqual(ev.failure["class"], "verify_error")
        self.assertIn("rule.no-barrier", [d["rule"] for d in ev.diagnostics])

    def test_manifest_constraint_against_task_shapes(self):
        t = task("softmax")
        t.shapes.append({"M": 3, "N": 10})  # N % 4 != 0: the VEC=4 kernel cannot run it
        ev = self.evaluator(t).prepare(t.instantiate((0, {"WARPS": 8, "VEC": 4})))
        self.assertEqual(ev.failure["class"], "shape_constraint")
        ok = self.evaluator(t).prepare(t.instantiate((0, {"WARPS": 8, "VEC": 2})))
        self.assertEqual(ok.status, "compiled", ok.failure)

    def test_hung_and_crashing_compiler(self):
        t = task("vector_add")
        t.timeouts["compile"] = 0.5
        ir = t.instantiate(t.start_genome())
        hang = self.fake_bin({"cake-translate": "import time\ntime.sleep(30)\n"}, real=("cake-opt",))
        ev = self.evaluator(t, hang).prepare(ir)
        self.assertEqual(ev.failure["class"], "compile_timeout")
        os.unlink(os.path.join(hang, "cake-translate"))
        self.write("bin/cake-translate", "#!/bin/sh\nkill -SEGV $$\n", 0o755)
        ev = self.evaluator(t, hang).prepare(ir)
        self.assertEqual(ev.failure["class"], "compile_crash")
        os.unlink(os.path.join(hang, "cake-translate"))
        ev = self.evaluator(t, hang).prepare(ir)
        self.assertEqual(ev.failure["class"], "compile_missing")


if __name__ == "__main__":
    unittest.main()


@util.needs_tools
class HostAbiTest(util.TempDir):
    """The shape check's two judges, the bindings' host ABI (in process) and cake-run
    --check-sizes, are the same code: they give the same verdicts."""

    SHAPES = [{"M": 4, "N": 8}, {"M": 4, "N": 10}, {"M": 0, "N": 8}, {"M": 4}]

    def test_bindings_and_cake_run_agree(self):
        import json
        import subprocess
        import sys
        packages = os.path.join(os.path.dirname(util.BIN), "python_packages")
        runner = os.path.join(util.BIN, "cake-run")
        if not os.path.isdir(os.path.join(packages, "cake")) or not os.access(runner, os.X_OK):
            self.skipTest("needs the Python bindings and cake-run of this build")
        manifest = os.path.join(self.tmp, "softmax.json")
        subprocess.run([os.path.join(util.BIN, "cake-translate"), os.path.join(util.ROOT, "examples", "softmax.mlir"),
                        "--emit=manifest", "-o", manifest], check=True)
        code = ("import json, sys\nimport cake\ntext = open(sys.argv[1]).read()\n"
                "print(json.dumps([cake.check_sizes(text, s) for s in json.loads(sys.argv[2])]))")
        res = subprocess.run([sys.executable, "-c", code, manifest, json.dumps(self.SHAPES)],
                             capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=packages))
        if res.returncode != 0 and "ImportError" in res.stderr:
            self.skipTest(f"the bindings do not load in this Python: {res.stderr.strip()[-200:]}")
        self.assertEqual(res.returncode, 0, res.stderr)
        in_process = json.loads(res.stdout)
        for shape, verdict in zip(self.SHAPES, in_process):
            sizes = ",".join(f"{k}={v}" for k, v in shape.items())
            record = json.loads(subprocess.run([runner, "--check-sizes", "--manifest", manifest, "--sizes", sizes],
                                               capture_output=True, text=True).stdout)
            self.assertEqual(verdict["ok"], record["status"] == "ok", (shape, verdict, record))
            self.assertEqual(verdict["error"], record["error"], shape)
        self.assertEqual([v["ok"] for v in in_process], [True, False, False, False])
        self.assertEqual(in_process[1]["error"], "constraint mod(N, 4) == 0 violated for N=10")
