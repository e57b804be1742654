"""An evaluator an agent cannot fool: the hack kernels, honest model-only fitness, the environment
check before blame, and learning that ignores the machine's failures."""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

from tests import util
from cake_agent import envcheck, interface, learn, measure
from cake_agent.evaluator import Evaluator
from cake_agent.task import TaskError, load_task
from cake_agent.tools import Toolchain

HACKS_DIR = os.path.join(util.ROOT, "test", "Verify", "Inputs", "hacks")
# The four hacks of the trust issue, as an agent would write them for the softmax task, and the rule
# that stops each (the same files test/Verify/hack-kernels.test checks with cake-opt).
HACK_RULES = {"no_store": "interface.output-unwritten", "in_place": "interface.input-written",
              "inline_asm": "ops.inline-asm", "timer": "ops.timer"}


def hack(name):
    with open(os.path.join(HACKS_DIR, name + ".mlir")) as f:
        return f.read()


def task(name):
    return load_task(os.path.join(util.TASKS, name + ".json"))


@util.needs_tools
class HackKernelsTest(util.TempDir):
    def test_each_hack_is_rejected_at_verify_with_its_rule(self):
        t = task("softmax")
        ev_tool = Evaluator(t, Toolchain(util.BIN, util.REFS), os.path.join(self.tmp, "work"))
        for name, rule in HACK_RULES.items():
            with self.subTest(hack=name):
                ev = ev_tool.prepare(hack(name))
                self.assertEqual((ev.status, ev.failure["step"]), ("failed", "verify"), ev.failure)
                self.assertIn(rule, [d["rule"] for d in ev.diagnostics])
                self.assertIsNone(ev.compile)  # rejected before it is compiled

    def test_seed_keeps_its_interface(self):
        for name in ("softmax", "vector_add", "gemm", "gemm_rb", "kmeans_assign", "kmeans_fp16", "kmeans_bf16"):
            with self.subTest(task=name):
                t = task(name)
                ev = Evaluator(t, Toolchain(util.BIN, util.REFS), os.path.join(self.tmp, name)).check(
                    t.instantiate(t.start_genome()))
                self.assertNotEqual(ev.status, "failed", ev.failure)

    def test_derived_interface_equals_the_declared_one(self):
        """Without an `interface` field the seed's manifest gives the same interface."""
        for name in ("softmax", "kmeans_fp16", "kmeans_assign"):
            with self.subTest(task=name):
                t = task(name)
                declared = t.interface.data
                t.interface = None
                ev = envcheck.check_seed(t, Toolchain(util.BIN, util.REFS), _ModelOnly(), os.path.join(self.tmp, name))
                self.assertEqual(ev.status, "compiled")
                self.assertEqual(t.interface.source, "seed")
                self.assertEqual(json.loads(json.dumps(t.interface.data["params"])),
                                 [dict(p, kind="tensor") for p in declared["params"]])


class _ModelOnly:
    name, measures = "model-only", False


class InterfaceTest(unittest.TestCase):
    def test_problems(self):
        self.assertEqual(interface.problems({"kernel": "k", "params": [{"name": "y", "role": "out"}]}), [])
        probs = interface.problems({"kernel": 3, "params": [{"name": "x", "role": "sideways"},
                                                            {"name": "x", "kind": "scalar", "extra": 1}]})
        self.assertTrue(any("kernel" in p for p in probs))
        self.assertTrue(any("role" in p and "sideways" in p for p in probs))
        self.assertTrue(any("declared twice" in p for p in probs))
        self.assertTrue(any("unknown field 'extra'" in p for p in probs))
        self.assertTrue(any("at least one output" in p for p in probs))
        self.assertEqual(len(interface.problems("x")), 1)

    def test_run_flags(self):
        i = interface.Interface({"kernel": "k", "params": [
            {"name": "a", "role": "in"}, {"name": "b", "role": "out"}, {"name": "c", "role": "out"},
            {"name": "d", "role": "inout"}, {"name": "s", "kind": "scalar", "dtype": "f32"}]})
        self.assertEqual(i.run_flags(), ["--outputs", "b,c", "--inouts", "d"])

    def test_task_with_a_bad_interface_is_refused(self):
        path = os.path.join(util.TASKS, "softmax.json")
        with open(path) as f:
            data = json.load(f)
        data["interface"]["params"][1]["role"] = "output"
        data["interface"]["kernel"] = "other"
        data["seeds"] = [os.path.join(util.TASKS, s) for s in data["seeds"]]
        with tempfile.TemporaryDirectory() as d:
            tmp = os.path.join(d, "task.json")
            with open(tmp, "w") as f:
                json.dump(data, f)
            with self.assertRaises(TaskError) as e:
                load_task(tmp)
        self.assertIn("role", str(e.exception))
        self.assertIn("differs from kernel 'softmax'", str(e.exception))

    def test_unchecked_declared_output_is_a_wrong_result(self):
        t = task("softmax")
        shape = t.shapes[0]
        record = {"status": "ok", "time_ms": 1.0, "sizes": shape, "seed": 5,
                  "outputs": [{"name": "x", "checked_by": "rel_l2", "rel_err": 0.0}]}
        m = measure.judge(t, shape, 5, record)
        self.assertEqual(m["status"], "wrong_result")
        self.assertIn("y", m["detail"])
        record["outputs"].append({"name": "y", "checked_by": "rel_l2", "rel_err": 0.0})
        self.assertEqual(measure.judge(t, shape, 5, record)["status"], "ok")

    def test_run_argv_declares_the_outputs(self):
        t = task("kmeans_fp16")
        argv = measure.run_argv("cake-run", "k.cubin", "k.json", "r.cubin", t, t.shapes[0], 1)
        self.assertEqual(argv[argv.index("--outputs") + 1], "idx")
        self.assertNotIn("--inouts", argv)


class ObjectiveTest(unittest.TestCase):
    def test_prediction_ranks_by_the_task_objective(self):
        t = task("softmax")  # weighted 1, 1, 0.1
        self.assertAlmostEqual(measure.objective(t, [1.0, 3.0, 10.0]), (1 + 3 + 1) / 2.1)
        t.objective = {"kind": "median"}
        self.assertEqual(measure.objective(t, [1.0, 3.0, 10.0]), 3.0)


@util.needs_tools
class HonestFitnessTest(util.TempDir):
    def test_prediction_below_the_floor_is_rejected(self):
        t = task("vector_add")
        t.floor = dict(t.floor, bandwidth=1e6)  # a floor no kernel can beat: every prediction is below it
        ev = Evaluator(t, Toolchain(util.BIN, util.REFS), os.path.join(self.tmp, "w")).check(
            t.instantiate(t.start_genome()))
        self.assertEqual((ev.status, ev.failure["step"], ev.failure["class"]), ("failed", "cost", "suspicious_fast"))

    def test_predicted_ms_is_the_objective_over_shapes(self):
        t = task("softmax")
        ev = Evaluator(t, Toolchain(util.BIN, util.REFS), os.path.join(self.tmp, "w")).check(
            t.instantiate(t.start_genome()))
        per = ev.cost["per_shape_ms"]
        self.assertEqual(len(per), len(t.shapes))
        self.assertAlmostEqual(ev.cost["predicted_ms"], measure.objective(t, per))


class EnvironmentTest(util.TempDir):
    def fake_bin(self, broken):
        """cake-opt / cake-translate that fail like a broken install (cake-translate: ptxas missing)."""
        d = os.path.join(self.tmp, "bin")
        real_opt = os.path.join(util.BIN, "cake-opt")
        if broken == "translate" and util.have_tools():
            os.makedirs(d, exist_ok=True)
            os.symlink(real_opt, os.path.join(d, "cake-opt"))
        else:
            self.write("bin/cake-opt", "#!/bin/sh\necho 'cake-opt: error while loading shared libraries: libMLIR.so.22' >&2\nexit 127\n", 0o755)
        self.write("bin/cake-translate", "#!/bin/sh\necho 'error: ptxas not found (set CUDA_HOME)' >&2\nexit 1\n", 0o755)
        return d

    def run_cli(self, *args):
        env = dict(os.environ, PYTHONPATH=util.AGENT)
        return subprocess.run([sys.executable, "-m", "cake_agent", *args], capture_output=True, text=True,
                              env=env, timeout=300)

    def test_broken_tools_stop_the_run_before_it_starts(self):
        for broken in ("opt", "translate"):
            with self.subTest(broken=broken):
                db = os.path.join(self.tmp, f"{broken}.db")
                res = self.run_cli("evolve", os.path.join(util.TASKS, "vector_add.json"), "--backend", "model-only",
                                   "--db", db, "--bin", self.fake_bin(broken), "--quiet")
                self.assertEqual(res.returncode, 7, res.stderr)
                self.assertIn("environment error: the seed fails at", res.stderr)
                self.assertNotIn("Traceback", res.stderr)
                conn = sqlite3.connect(db)  # the run says why; no candidate is blamed
                self.assertEqual(conn.execute("SELECT COUNT(*) FROM candidates").fetchone()[0], 0)
                status, note = conn.execute("SELECT status, note FROM runs").fetchone()
                self.assertEqual(status, "interrupted")
                self.assertIn("environment", note)
                shutil.rmtree(os.path.join(self.tmp, "bin"))


class LearningIgnoresTheMachineTest(util.TempDir):
    def test_infrastructure_classes_and_classes_without_a_passing_candidate(self):
        from cake_agent.db import Database
        db = Database(os.path.join(self.tmp, "l.db"))
        with db.tx() as c:
            c.execute("INSERT INTO runs (id, task, task_class, status, backend, policy, config, started) VALUES "
                      "(1, 't', 'f32', 'done', 'model-only', 'search', '{}', 0)")
            for i, cls in enumerate(["compile_error"] * 3 + ["compile_missing"] * 3):
                c.execute("INSERT INTO candidates (id, run_id, generation, ir_hash, ir, status, failure_class, created)"
                          " VALUES (?, 1, 0, ?, ?, 'failed', ?, 0)",
                          (i + 1, f"h{i}", "%0 = arith.addf %a, %b : f32\n", cls))
        keys = {k[0] for k in learn.clusters(db)}
        self.assertEqual(keys, {"compile_error"})  # compile_missing is the machine's
        self.assertEqual(learn.propose(db), [])  # no passing f32 candidate: nothing to learn


if __name__ == "__main__":
    unittest.main()
