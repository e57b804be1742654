"""Judging cake-run records (speed-of-light, mismatches), the objective, and the local backend."""
import os
import unittest
from unittest import mock

from tests import util
from cake_agent import backends, measure
from cake_agent.evaluator import Evaluator
from cake_agent.task import load_task
from cake_agent.tools import Toolchain


def vector_add():
    return load_task(os.path.join(util.TASKS, "vector_add.json"))


def record(shape, seed, status="ok", time_ms=1.0, cubin="k.cubin"):
    return {"status": status, "sizes": dict(shape), "seed": seed, "time_ms": time_ms, "cubin": cubin,
            "error": None if status == "ok" else "x",
            "outputs": [{"name": "z", "rel_err": 2e-7, "checked_by": "rel_l2"}]}


class JudgeTest(unittest.TestCase):
    def test_ok_and_floor(self):
        t = vector_add()
        shape = {"N": 16777216}
        floor_ms = t.floor_seconds(shape) * 1e3
        self.assertAlmostEqual(floor_ms, 12 * 16777216 / 4.24e12 * 1e3)
        m = measure.judge(t, shape, 7, record(shape, 7, time_ms=floor_ms * 1.06))
        self.assertEqual((m["status"], m["rel_err"]), ("ok", 2e-7))
        m = measure.judge(t, shape, 7, record(shape, 7, time_ms=floor_ms * 0.5))
        self.assertEqual(m["status"], "suspicious_fast")
        self.assertIn("below the speed-of-light floor", m["detail"])

    def test_failure_classes(self):
        t, shape = vector_add(), {"N": 4097}
        self.assertEqual(measure.judge(t, shape, 1, None)["status"], "runner_crash")
        self.assertEqual(measure.judge(t, shape, 1, record(shape, 2))["status"], "mismatch")
        self.assertEqual(measure.judge(t, shape, 1, record({"N": 4096}, 1))["status"], "mismatch")
        self.assertEqual(measure.judge(t, shape, 1, record(shape, 1, "timeout"))["status"], "run_timeout")
        self.assertEqual(measure.judge(t, shape, 1, record(shape, 1, "wrong_result"))["status"], "wrong_result")
        self.assertEqual(measure.judge(t, shape, 1, record(shape, 1, "weird"))["status"], "runner_crash")
        self.assertEqual(measure.judge(t, shape, 1, record(shape, 1, time_ms=None))["status"], "runner_crash")

    def test_objectives(self):
        t = vector_add()
        ms = [measure.judge(t, s, 1, record(s, 1, time_ms=x)) for s, x in zip(t.shapes, (3.0, 1.0, 2.0))]
        self.assertEqual(measure.fitness(t, ms), 2.0)
        t.objective = {"kind": "weighted", "weights": [1, 0, 1]}
        self.assertEqual(measure.fitness(t, ms), 2.5)
        ms[1]["status"] = "wrong_result"
        self.assertIsNone(measure.fitness(t, ms))
        self.assertIsNone(measure.fitness(t, ms[:2]))

    def test_fresh_seeds(self):
        self.assertGreater(len({measure.fresh_seed() for _ in range(50)}), 45)


@util.needs_tools
class TimerTest(util.TempDir):
    def test_task_timer_reaches_cake_run_and_bad_values_are_named(self):
        import json
        from cake_agent.task import TaskError
        with open(os.path.join(util.TASKS, "vector_add.json")) as f:
            data = json.load(f)
        seeds = os.path.join(util.TASKS, "seeds")
        data["seeds"] = [os.path.join(seeds, os.path.basename(s)) for s in data["seeds"]]
        t = vector_add()
        self.assertEqual(t.timer, "events")
        self.assertNotIn("--timer", measure.run_argv("cake-run", "k", "m", "r", t, t.shapes[0], 1))
        g = load_task(self.write_json("g.json", dict(data, timer="graph")))
        argv = measure.run_argv("cake-run", "k", "m", "r", g, g.shapes[0], 1)
        self.assertEqual(argv[argv.index("--timer") + 1], "graph")
        with self.assertRaises(TaskError) as e:
            load_task(self.write_json("b.json", dict(data, timer="wall")))
        self.assertIn("'timer' must be one of events, graph", str(e.exception))


class LocalBackendTest(util.TempDir):
    def prepared(self, bin_dir, t):
        ev = Evaluator(t, Toolchain(bin_dir, util.REFS), os.path.join(self.tmp, "w")).prepare(
            t.instantiate(t.start_genome()))
        self.assertEqual(ev.status, "compiled", ev.failure)
        return ev

    def setUp(self):
        super().setUp()
        self.bin = self.fake_bin({"cake-run": util.FAKE_CAKE_RUN})
        self.write("refs/vector_add_ref.cubin", "ref")
        self.tools = Toolchain(self.bin, os.path.join(self.tmp, "refs"))

    def test_measures_every_shape_with_distinct_seeds(self):
        t = vector_add()
        ev = self.prepared(self.bin, t)
        with mock.patch.dict(os.environ, {"FAKE_TIME_MS": "0.5"}):
            backends.Local(iters=5).measure(t, self.tools, ev)
        self.assertEqual(ev.status, "measured")
        self.assertEqual([m["shape"] for m in ev.measurements], t.shapes)
        self.assertEqual(len({m["seed"] for m in ev.measurements}), 3)
        self.assertEqual((ev.fitness, ev.fitness_kind), (0.5, "measured_ms"))

    def test_failures(self):
        t = vector_add()
        for env, cls in (({"FAKE_STATUS": "wrong_result"}, "wrong_result"),
                         ({"FAKE_TIME_MS": "1e-9"}, "suspicious_fast"),
                         ({"FAKE_SEED_DELTA": "1"}, "mismatch")):
            ev = self.prepared(self.bin, t)
            with mock.patch.dict(os.environ, env):
                backends.Local().measure(t, self.tools, ev)
            self.assertEqual((ev.status, ev.failure["class"], ev.fitness), ("failed", cls, None))
        ev = self.prepared(self.bin, t)
        with mock.patch.dict(os.environ, {"FAKE_STATUS": "no_device"}), self.assertRaises(backends.NoDevice):
            backends.Local().measure(t, self.tools, ev)


if __name__ == "__main__":
    unittest.main()
