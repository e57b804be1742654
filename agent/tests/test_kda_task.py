"""The KDA evolution task (agent/tasks/kda.json): its seed is the generator's, it verifies against
the declared interface, the generated cu_seqlens are valid offsets for every shape, bad generator
specs are refused with exit 2, and the generated files reach cake-run (local and batch)."""
import copy
import importlib.util
import json
import os
import struct

from tests import util
from cake_agent import backends, cost, inputs, measure
from cake_agent.evaluator import Evaluator
from cake_agent.task import TaskError, load_task
from cake_agent.tools import Toolchain

TASK = os.path.join(util.TASKS, "kda.json")
SEEDS = os.path.join(util.TASKS, "seeds")


def seed_module():
    spec = importlib.util.spec_from_file_location("kda_seed", os.path.join(SEEDS, "kda_seed.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_offsets(path):
    with open(path, "rb") as f:
        data = f.read()
    return list(struct.unpack(f"<{len(data) // 8}q", data))


class KdaTaskTest(util.TempDir):
    def setUp(self):
        super().setUp()
        self.task = load_task(TASK)
        with open(TASK) as f:
            self.doc = json.load(f)

    def test_committed_seed_is_the_generated_one(self):
        with open(os.path.join(SEEDS, "kda.mlir")) as f:
            self.assertEqual(f.read(), seed_module().generate())

    def test_task_shape(self):
        t = self.task
        self.assertEqual((t.task_class, t.kernel, t.tunables, t.rtol), ("kda", "kda_rec_c16_p1", {}, 0.02))
        self.assertEqual(t.interface.tensors("out", "inout"), ["final_state", "out"])
        self.assertTrue(any(s["T"] % 16 for s in t.shapes), "a length that is not a multiple of the chunk")
        for s in t.shapes:
            self.assertEqual(s["S"], s["N"] + 1)
            self.assertGreater(t.floor_seconds(s), 0)

    def test_offsets_are_valid_for_every_shape(self):
        for i, shape in enumerate(self.task.shapes):
            with self.subTest(shape=shape):
                paths = inputs.write(self.task, i, self.tmp)
                off = read_offsets(paths["cu_seqlens"])
                self.assertEqual(len(off), shape["N"] + 1)
                self.assertEqual((off[0], off[-1]), (0, shape["T"]))
                self.assertEqual(off, sorted(off))
                self.assertEqual(off, inputs.offsets(self.task.inputs["cu_seqlens"], shape, 0))  # deterministic

    def test_even_random_and_given_splits(self):
        shape = {"T": 10, "N": 3}
        self.assertEqual(inputs.offsets({"total": "T", "parts": "N"}, shape, 0), [0, 4, 7, 10])
        given = {"total": "T", "parts": "N", "lengths": [[0, 9, 1]]}
        self.assertEqual(inputs.offsets(given, shape, 0), [0, 0, 9, 10])
        rand = {"total": "T", "parts": "N", "lengths": "random", "seed": 5}
        a = inputs.offsets(rand, shape, 0)
        self.assertEqual(a, inputs.offsets(rand, shape, 0))
        self.assertNotEqual(inputs.offsets(dict(rand, seed=1), {"T": 4096, "N": 8}, 0),
                            inputs.offsets(dict(rand, seed=2), {"T": 4096, "N": 8}, 0))
        self.assertEqual(inputs.encode({"dtype": "i32"}, [0, 3]), b"\0\0\0\0\3\0\0\0")

    def test_bad_generator_specs_exit_2(self):
        spec = self.doc["inputs"]["cu_seqlens"]
        cases = [
            ({"kind": "ranges"}, "inputs.cu_seqlens.kind"),
            ({"size": 3}, "inputs.cu_seqlens.size: unknown key"),
            ({"total": None}, "inputs.cu_seqlens: missing 'total'"),
            ({"lengths": "uniform"}, "inputs.cu_seqlens.lengths"),
            ({"lengths": [[4096]]}, "1 lists for 3 shapes"),
            ({"lengths": [[1, 2, 3, 4], [1, 2], [1, 2, 3]], "seed": None}, "summing to 4096"),
            ({"seed": -1}, "inputs.cu_seqlens.seed"),
            ({"dtype": "i32"}, "but the interface declares i64"),
            ({"parts": "N + 1"}, "6 offsets, but the interface's shape ['S'] holds 5"),
            ({"parts": "N - N"}, "needs parts >= 1"),
            ({"total": "T * X"}, "unknown name 'X'"),
        ]
        for change, message in cases:
            with self.subTest(change=change):
                doc = copy.deepcopy(self.doc)
                s = dict(spec, **change)
                doc["inputs"]["cu_seqlens"] = {k: v for k, v in s.items() if v is not None}
                self.expect_refused(doc, message)
        doc = copy.deepcopy(self.doc)
        doc["inputs"] = {"out": dict(spec)}
        self.expect_refused(doc, "inputs.out: not an input tensor of the interface")
        doc["inputs"] = [spec]
        self.expect_refused(doc, "'inputs' must be an object")

    def expect_refused(self, doc, message):
        doc["seeds"] = [os.path.join(SEEDS, "kda.mlir")]
        path = self.write_json("bad.json", doc)
        with self.assertRaises(TaskError) as cm:
            load_task(path)
        self.assertIn(message, str(cm.exception))
        db = os.path.join(self.tmp, "never.db")
        rc, _, err = util.run_cli("evolve", path, "--db", db, "--backend", "model-only", "--quiet")
        self.assertEqual(rc, 2, err)
        self.assertIn(message, err)
        self.assertNotIn("Traceback", err)
        self.assertFalse(os.path.exists(db))

    def test_cake_run_gets_the_files(self):
        """run_shapes passes every shape's file to cake-run (a stand-in that reads it back)."""
        fake = ("import json, struct, sys\na = sys.argv[1:]\n"
                "name, path = a[a.index('--input') + 1].split('=', 1)\n"
                "data = open(path, 'rb').read()\n"
                "sizes = dict((k, int(v)) for k, v in (kv.split('=') for kv in a[a.index('--sizes') + 1].split(',')))\n"
                "print(json.dumps({'status': 'ok', 'sizes': sizes, 'seed': int(a[a.index('--seed') + 1]),\n"
                "  'time_ms': 1.0, 'error': name + ' ' + repr(struct.unpack('<%dq' % (len(data) // 8), data)),\n"
                "  'outputs': [{'name': n, 'rel_err': 0.0, 'checked_by': 'rel_l2'} for n in ('out', 'final_state')]}))\n")
        run = self.write("bin/cake-run", "#!/usr/bin/env python3\n" + fake, 0o755)
        ms = backends.run_shapes(self.task, run, "k.cubin", "k.json", "r.cubin", 1)
        self.assertEqual([m["status"] for m in ms], ["ok"] * 3)
        for m in ms:
            want = tuple(inputs.offsets(self.task.inputs["cu_seqlens"], m["shape"], 0))
            self.assertEqual(m["detail"], f"cu_seqlens {want!r}")
        argv = measure.run_argv("cake-run", "k", "m", "r", self.task, self.task.shapes[0], 1, 1, {"x": "x.bin"})
        self.assertEqual(argv[-2:], ["--input", "x=x.bin"])

    def test_prediction_over_data_dependent_loops_is_partial(self):
        body = {"predicted_time_ms": 0.001, "assumptions": [
            "the trip count of the loop at f.mlir:9:5 depends on data: assumed 1"]}
        out = cost._summary([{"kernels": [body]}])
        self.assertEqual((out["status"], out["predicted_ms"], out["per_shape_ms"]), ("partial", None, None))
        self.assertEqual(out["partial_ms"], [0.001])
        self.assertEqual(cost._summary([{"predicted_time_ms": 0.5}])["predicted_ms"], 0.5)

    @util.needs_tools
    def test_seed_verifies_and_its_prediction_is_partial(self):
        tools = Toolchain(util.BIN)
        util.require_feature(self, tools.features()["schedule_verify"], "cake-opt without --cake-verify")
        ev = Evaluator(self.task, tools, self.tmp).check(self.task.instantiate(self.task.start_genome()))
        self.assertEqual(ev.status, "new", ev.failure)
        if tools.features()["cost_report"]:
            # The token loops run from cu_seqlens[n] to cu_seqlens[n + 1]: the model counts them once.
            self.assertEqual(ev.cost["status"], "partial")
            self.assertIn("depends on data", ev.cost["detail"])

    @util.needs_tools
    def test_batch_export_carries_the_inputs(self):
        self.write("refs/kda_ref.cubin", "reference")
        bin_dir = self.fake_bin({"cake-run": util.FAKE_CAKE_RUN})
        db, out = os.path.join(self.tmp, "b.db"), os.path.join(self.tmp, "gen0")
        rc, _, err = util.run_cli("evolve", TASK, "--db", db, "--backend", "batch", "--bin", bin_dir,
                                  "--refs", os.path.join(self.tmp, "refs"), "--candidates", "1",
                                  "--generation", "1", "--batch-dir", out, "--quiet")
        self.assertEqual(rc, 0, err)
        with open(os.path.join(out, "plan.json")) as f:
            jobs = json.load(f)["jobs"]
        self.assertEqual(len(jobs), len(self.task.shapes))
        for job in jobs:
            arg = job["args"][job["args"].index("--input") + 1]
            name, rel = arg.split("=", 1)
            self.assertEqual(name, "cu_seqlens")
            self.assertFalse(os.path.isabs(rel))
            self.assertEqual(read_offsets(os.path.join(out, rel)),
                             inputs.offsets(self.task.inputs["cu_seqlens"], job["shape"], 0))

    @util.needs_tools
    def test_model_only_run_completes_unranked(self):
        db = os.path.join(self.tmp, "m.db")
        rc, out, err = util.run_cli("evolve", TASK, "--db", db, "--backend", "model-only", "--candidates", "3",
                                    "--quiet", "--rng-seed", "1")
        self.assertEqual(rc, 0, err)
        if Toolchain(util.BIN).features()["cost_report"]:
            self.assertIn("predictions of 3 candidates are partial", out)
        rows = util.open_db(self, db).q("SELECT status, fitness, tactics FROM candidates")
        self.assertEqual([(r["status"], r["fitness"]) for r in rows], [("compiled", None)] * 3)
        self.assertTrue(any(r["tactics"] != "[]" for r in rows), "the seed's tactic children")
