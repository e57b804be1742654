"""Throughput: the one-process cost of every shape, the compile cache, candidate generation and
``cake throughput``, with the real tools."""
import json
import os
import unittest
from unittest import mock

from tests import util
from cake_agent import cost as cost_mod
from cake_agent import tactics as tactics_mod
from cake_agent import throughput
from cake_agent.evaluator import Evaluator, ir_hash
from cake_agent.task import load_task
from cake_agent.tools import Toolchain


def task(name):
    return load_task(os.path.join(util.TASKS, name + ".json"))


@util.needs_tools
class CostOneProcessTest(util.TempDir):
    def test_same_reports_as_one_process_per_shape(self):
        t = task("gemm")
        tools = Toolchain(util.BIN)
        util.require_feature(self, tools.features()["cost_report"], "cake-opt has no --cake-print-cost")
        path = self.write("k.mlir", t.instantiate(t.start_genome()))
        one = cost_mod.cost(tools, path, t.shapes, 30)
        with mock.patch.dict(os.environ, {"CAKE_COST_ARGS": "'--cake-print-cost=sizes={sizes} json=-'"}):
            each = cost_mod.cost(tools, path, t.shapes, 30)
        self.assertEqual(one["status"], "ok")
        self.assertEqual(len(one["report"]), len(t.shapes))
        self.assertEqual(one["report"], each["report"])
        self.assertEqual(one["predicted_ms"], each["predicted_ms"])
        for shape, report in zip(t.shapes, one["report"]):
            self.assertEqual(report["kernels"][0]["sizes"], shape)
        self.assertGreater(one["seconds"], 0)


@util.needs_tools
class CompileCacheTest(util.TempDir):
    def test_hit_copies_the_outputs_and_other_tools_miss(self):
        t = task("vector_add")
        ir = t.instantiate(t.start_genome())
        cache = os.path.join(self.tmp, "cache")
        first = Evaluator(t, Toolchain(util.BIN), os.path.join(self.tmp, "w1"), cache).prepare(ir)
        self.assertEqual(first.status, "compiled", first.failure)
        self.assertEqual(first.steps[-1]["status"], "ok")
        again = Evaluator(t, Toolchain(util.BIN), os.path.join(self.tmp, "w2"), cache).prepare(ir)
        self.assertEqual(again.status, "compiled")
        self.assertEqual(again.steps[-1]["step"], "compile")
        self.assertEqual(again.steps[-1]["status"], "cached")
        self.assertEqual(again.compile["seconds"], first.compile["seconds"])  # of the compile that made it
        self.assertNotEqual(again.compile["cubin"], first.compile["cubin"])  # its own copy
        for k in ("registers", "smem_bytes", "symbols", "entry"):
            self.assertEqual(again.compile[k], first.compile[k])
        with open(first.compile["cubin"], "rb") as a, open(again.compile["cubin"], "rb") as b:
            self.assertEqual(a.read(), b.read())
        # Another cake-translate (here a wrapper: another file) is another compiler: no hit.
        other = self.fake_bin({}, real=("cake-opt",))
        self.write("bin/cake-translate", f"#!/bin/sh\nexec {os.path.join(util.BIN, 'cake-translate')} \"$@\"\n", 0o755)
        third = Evaluator(t, Toolchain(other), os.path.join(self.tmp, "w3"), cache).prepare(ir)
        self.assertEqual(third.steps[-1]["status"], "ok")
        # Another IR: no hit either.
        fourth = Evaluator(t, Toolchain(util.BIN), os.path.join(self.tmp, "w4"), cache).prepare(ir + "\n// changed\n")
        self.assertEqual(fourth.steps[-1]["status"], "ok")
        self.assertTrue([d for d in os.listdir(cache) if not d.startswith("tmp-")])
        self.assertFalse([d for d in os.listdir(cache) if d.startswith("tmp-")])  # no leftovers

    def test_evolve_resume_with_the_cache_gives_the_same_facts(self):
        db = os.path.join(self.tmp, "c.db")
        argv = ("evolve", os.path.join(util.TASKS, "vector_add.json"), "--db", db, "--bin", util.BIN, "--quiet",
                "--backend", "model-only", "--candidates", "4", "--rng-seed", "2")
        rc, _, err = util.run_cli(*argv)
        self.assertEqual(rc, 0, err)
        rc, _, err = util.run_cli(*argv)  # a second run of the task: same proposals, compiled ones cached
        self.assertEqual(rc, 0, err)
        d = util.open_db(self, db)
        steps = [json.loads(r["steps"])[-1]["status"] for r in d.candidates(2)]
        self.assertEqual(steps, ["cached"] * 4)
        facts = lambda run: sorted((r["ir_hash"], d.compile_facts(r["id"])["registers"]) for r in d.candidates(run))
        self.assertEqual(facts(1), facts(2))
        rc, _, err = util.run_cli("evolve", os.path.join(util.TASKS, "vector_add.json"), "--db", db, "--bin",
                                  util.BIN, "--quiet", "--backend", "model-only", "--candidates", "2",
                                  "--rng-seed", "2", "--no-compile-cache")
        self.assertEqual(rc, 0, err)
        self.assertEqual([json.loads(r["steps"])[-1]["status"] for r in d.candidates(3)], ["ok", "ok"])


@util.needs_tools
class ThroughputTest(util.TempDir):
    def test_generate_distinct_candidates_with_tactics(self):
        t = task("gemm")
        tools = Toolchain(util.BIN)
        props = throughput.generate(t, tools, 12, 3, tactics_mod.builtin(tools))
        self.assertEqual(len(props), 12)
        self.assertEqual(len({ir_hash(p.ir) for p in props}), 12)
        self.assertTrue(any(p.tactics for p in props))  # the gemm seed has shared buffers: pad-N applies
        # The space of vector_add is finite: generation stops there.
        small = task("vector_add")
        small.tunables = {k: [small.start[k]] for k in small.tunables}  # one genome
        self.assertEqual(len(throughput.generate(small, tools, 10, 1, [])), 1)

    def test_cli_json(self):
        rc, out, err = util.run_cli("throughput", "--task", os.path.join(util.TASKS, "vector_add.json"), "--n", "4",
                                    "--jobs", "2", "--bin", util.BIN, "--examples", "vector_add,nonexistent",
                                    "--repeat", "1", "--json", "--rng-seed", "5")
        self.assertEqual(rc, 0, err)
        res = json.loads(out)
        self.assertEqual(res["generate"]["candidates"], 4)
        self.assertEqual(res["verify_cost"]["verified"], 4)
        self.assertGreater(res["verify_cost"]["per_s"], 0)
        self.assertEqual(res["compile"]["compiled"], 4)
        self.assertGreater(res["compile"]["per_s"], 0)
        self.assertEqual(res["evolve"]["candidates"], 4)
        ex = {r["example"]: r for r in res["examples"]}
        self.assertIn("error", ex["nonexistent"])
        va = ex["vector_add"]
        self.assertGreater(va["median_s"], 0)
        if throughput.find_ptxas():
            self.assertEqual(set(va["split_s"]), {"start+parse+verify+manifest",
                                                  "lower to LLVM dialect + translate to LLVM IR",
                                                  "LLVM -O3 + NVPTX codegen", "ptxas (in cake-translate)"})
        self.assertEqual(res["examples_parallel"]["compiles"], 1)
        rc, out, err = util.run_cli("throughput", "--task", os.path.join(util.TASKS, "vector_add.json"), "--n", "2",
                                    "--bin", util.BIN, "--examples", "", "--no-evolve")
        self.assertEqual(rc, 0, err)
        self.assertIn("verify+cost: 2 candidates", out)
        self.assertIn("/s", out)


if __name__ == "__main__":
    unittest.main()
