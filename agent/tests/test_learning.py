"""Tactic passes through the harness, tactic statistics, the stagnation hint, rules learned from
failure clusters, calibration from the database, and the predicted-vs-measured plot."""
import json
import os
import random
import subprocess
import sys
import tempfile
import types
import unittest

from tests import util
from cake_agent import calibrate, learn, population, report, tactics
from cake_agent.db import Database
from cake_agent.evaluator import ir_hash
from cake_agent.policies import Proposal
from cake_agent.policies.search import SearchPolicy
from cake_agent.task import load_task, signature
from cake_agent.tools import Toolchain

GEMM = os.path.join(util.ROOT, "examples", "hopper_gemm.mlir")


def evaluation(ir, status="compiled", fitness=None, kind=None, failure=None, diags=(), cost=None, meas=()):
    return types.SimpleNamespace(
        ir_hash=ir_hash(ir), ir=ir, status=status, fitness=fitness, fitness_kind=kind, steps={}, dir=None,
        failure={"class": failure, "step": "run", "detail": ""} if failure else None,
        diagnostics=[dict(rule=r, severity="error", line=1, col=1, op=o, message="m", hint="") for r, o in diags],
        cost=cost or {"status": "unavailable"}, compile=None, measurements=list(meas))


class Fixture(util.TempDir):
    def setUp(self):
        super().setUp()
        self.db = Database(os.path.join(self.tmp, "t.db"))
        self.task = load_task(os.path.join(util.TASKS, "vector_add.json"))
        self.run = self.db.new_run(self.task, "model-only", "search", {})

    def add(self, ir, parent=None, chain=(), gen=0, **kw):
        prop = Proposal(ir, "search", parent, [0, {}], chain, f"s{len(self.db.candidates(self.run))}")
        return self.db.record(self.run, gen, evaluation(ir, **kw), prop, "model-only")


class TacticOrderTest(unittest.TestCase):
    def test_order_prefers_successful_fast_tactics(self):
        tacs = [tactics.Tactic(n, "builtin.module(canonicalize)") for n in ("a", "b", "c")]
        stats = {"a": {"tries": 10, "successes": 1, "mean_speedup": 1.0},
                 "b": {"tries": 10, "successes": 9, "mean_speedup": 1.5}}
        self.assertEqual([t.name for t in tactics.order(tacs, stats)], ["b", "c", "a"])
        self.assertEqual(tactics.score(None), 0.5)

    @util.needs_tools
    def test_builtin_tactics_come_from_the_registry(self):
        """cake-opt --cake-list-tactics is the one list: every preset names a registered
        cake-tactic-* pass, and every such pass has a preset."""
        from cake_agent.tools import Toolchain
        tools = Toolchain(util.BIN)
        listed = tactics.builtin(tools)
        names = [t.name for t in listed]
        self.assertIn("pipeline-stages-3", names)
        self.assertIn("pad-4", names)
        self.assertIn("tensorize-wgmma-64", names)
        self.assertEqual(len(names), len(set(names)))
        self.assertTrue(all(t.pipeline.startswith("builtin.module(cake-tactic-") for t in listed))
        import re
        import subprocess
        help_text = subprocess.run([tools.path("cake-opt"), "--help"], capture_output=True, text=True).stdout
        passes = set(re.findall(r"--(cake-tactic-[a-z-]+)", help_text))
        used = {re.match(r"builtin\.module\(([a-z-]+)", t.pipeline).group(1) for t in listed}
        self.assertEqual(used, passes)

    def test_a_cake_opt_without_the_registry_gives_no_tactics(self):
        with tempfile.TemporaryDirectory() as tmp:
            fake = os.path.join(tmp, "cake-opt")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\necho 'unknown option' >&2\nexit 1\n")
            os.chmod(fake, 0o755)
            from cake_agent.tools import Toolchain
            self.assertEqual(tactics.builtin(Toolchain(tmp)), [])


@util.needs_tools
class TacticPassTest(unittest.TestCase):
    """The shipped cake-tactic-* passes through the Tactic interface."""

    def setUp(self):
        self.tools = Toolchain(util.BIN)
        self.by_name = {t.name: t for t in tactics.builtin(self.tools)}
        with open(GEMM) as f:
            self.gemm = f.read()

    def test_cake_opt_has_them(self):
        self.assertIn("pipeline-stages-3", self.by_name)
        self.assertIn("pad-4", self.by_name)
        self.assertIn("swizzle-128", self.by_name)
        self.assertIn("vectorize-8", self.by_name)

    def test_pipeline_stages_applies_and_refuses(self):
        out, why = self.by_name["pipeline-stages-3"].apply(self.tools, self.gemm)
        self.assertIsNone(why)
        self.assertIn("!cake.pipeline<3>", out)
        self.assertIn("!cake.smem<3x128x64xbf16, swizzle = 128>", out)
        self.assertEqual(self.by_name["pipeline-stages-4"].apply(self.tools, self.gemm)[1], "no change")
        out, why = self.by_name["pipeline-stages-5"].apply(self.tools, self.gemm)  # over 227 KiB
        self.assertIsNone(out)
        self.assertIn("tactic.not-applicable", why)
        task = load_task(os.path.join(util.TASKS, "vector_add.json"))
        self.assertEqual(self.by_name["pipeline-stages-3"].apply(self.tools, task.instantiate(task.start_genome()))[1],
                         "precondition false")

    def test_pad_refuses_tma_buffers_and_pads_plain_ones(self):
        out, why = self.by_name["pad-4"].apply(self.tools, self.gemm)
        self.assertIsNone(out)
        self.assertIn("no shared buffer qualifies", why)
        task = load_task(os.path.join(util.TASKS, "gemm.json"))
        ir = task.instantiate(task.start_genome())
        out, why = self.by_name["pad-4"].apply(self.tools, ir)
        self.assertIsNone(why, why)
        self.assertIn("pad = 4>", out)

    def test_swizzle_refuses_tma_buffers_and_swizzles_plain_ones(self):
        out, why = self.by_name["swizzle-128"].apply(self.tools, self.gemm)
        self.assertIsNone(out)
        self.assertIn("no shared buffer qualifies", why)
        task = load_task(os.path.join(util.TASKS, "gemm.json"))
        out, why = self.by_name["swizzle-64"].apply(self.tools, task.instantiate(task.start_genome()))
        self.assertIsNone(why, why)
        self.assertIn("swizzle = 64>", out)

    def test_vectorize_widens_the_kmeans_dot_product(self):
        task = load_task(os.path.join(util.TASKS, "kmeans_fp16.json"))
        out, why = self.by_name["vectorize-8"].apply(self.tools, task.instantiate(task.start_genome()))
        self.assertIsNone(why, why)
        self.assertIn("-> vector<8xf16>", out)
        self.assertIn("vector.reduction <add>", out)
        gemm = load_task(os.path.join(util.TASKS, "gemm.json"))  # its loops accumulate vectors
        out, why = self.by_name["vectorize-8"].apply(self.tools, gemm.instantiate(gemm.start_genome()))
        self.assertIsNone(out)
        self.assertIn("no reduction loop qualifies", why)

    def test_stage_rows_after_vectorize(self):
        task = load_task(os.path.join(util.TASKS, "kmeans_fp16.json"))
        wide, why = self.by_name["vectorize-8"].apply(self.tools, task.instantiate(task.start_genome()))
        self.assertIsNone(why, why)
        staged, why = self.by_name["stage-rows"].apply(self.tools, wide)
        self.assertIsNone(why, why)
        self.assertIn("!cake.smem<32x128xf16>", staged)
        self.assertEqual(staged.count("cake.barrier"), 2)
        padded, why = self.by_name["pad-8"].apply(self.tools, staged)
        self.assertIsNone(why, why)
        self.assertIn("pad = 8>", padded)

    def test_tensorize_puts_the_kmeans_seed_on_tensor_cores(self):
        task = load_task(os.path.join(util.TASKS, "kmeans_fp16.json"))
        seed = task.instantiate(task.start_genome())
        out, why = self.by_name["tensorize-64"].apply(self.tools, seed)
        self.assertIsNone(why, why)
        # D/16 per group of 8 centroids, in the full-tile loop and in the ragged last tile's
        self.assertEqual(out.count("cake.mma_sync"), 16)
        self.assertIn("!cake.smem<64x128xf16, pad = 8>", out)
        self.assertIn("{lanes = 4 : i64}", out)
        wg, why = self.by_name["tensorize-wgmma-64"].apply(self.tools, seed)
        self.assertIsNone(why, why)
        self.assertEqual(wg.count("cake.wgmma.regs"), 16)  # D/16 per tile, twice again
        self.assertIn("!cake.smem<2x64x64xf16, swizzle = 128>", wg)
        again, why = self.by_name["tensorize-64"].apply(self.tools, out)
        self.assertIsNone(again)
        self.assertEqual(why, "precondition false")  # already on tensor cores
        wide, _ = self.by_name["vectorize-8"].apply(self.tools, seed)
        out, why = self.by_name["tensorize-32"].apply(self.tools, wide)
        self.assertIsNone(out)
        self.assertIn("no warp dot-product reduction qualifies", why)

    def test_contract_fuses_the_kmeans_epilogue_once(self):
        task = load_task(os.path.join(util.TASKS, "kmeans_fp16.json"))
        seed = task.instantiate(task.start_genome())
        out, why = self.by_name["contract"].apply(self.tools, seed)
        self.assertIsNone(why, why)
        self.assertRegex(out, r"arith\.mulf .* fastmath<contract> : f32")
        self.assertRegex(out, r"arith\.subf .* fastmath<contract> : f32")
        again, why = self.by_name["contract"].apply(self.tools, out)
        self.assertIsNone(again)  # unchanged: already contracted
        self.assertIsNotNone(why)

    def test_search_policy_applies_tactics(self):
        task = load_task(os.path.join(util.TASKS, "gemm.json"))
        ir = task.instantiate(task.start_genome())
        from tests.test_policies import FakeMember
        parent = FakeMember(1, task.start_genome(), fitness=1.0, ir=ir)
        pol = SearchPolicy(task, random.Random(0), self.tools, tactics.builtin(self.tools), tactic_rate=1.0,
                           stats=lambda: {"pad-4": {"tries": 5, "successes": 5, "mean_speedup": 2.0}})
        props = pol.propose([parent], 1)
        self.assertEqual(props[0].tactics, ("pad-4",))  # the best-scored applicable tactic first
        self.assertIn("pad = 4>", props[0].ir)


class TacticStatsTest(Fixture):
    def test_stats_per_class_and_pooled_for_new_classes(self):
        p = self.add("parent", fitness=2.0, kind="predicted_ms")
        self.add("child-a", parent=p, chain=["pad-4"], fitness=1.0, kind="predicted_ms")
        self.add("child-b", parent=p, chain=["pad-8"], status="failed", failure="verify_error")
        self.add("mutant", parent=p, fitness=1.5, kind="predicted_ms")  # not a tactic try
        self.assertEqual(learn.refresh_tactic_stats(self.db), 2)
        s = learn.tactic_stats(self.db, self.task.task_class)
        self.assertEqual(s["pad-4"]["tries"], 1)
        self.assertEqual(s["pad-4"]["successes"], 1)
        self.assertAlmostEqual(s["pad-4"]["mean_speedup"], 2.0)
        self.assertEqual(s["pad-8"]["successes"], 0)
        other = learn.tactic_stats(self.db, "a-new-class")
        self.assertEqual(other["pad-4"]["source"], "all classes")
        self.assertEqual([t.name for t in tactics.order(
            [tactics.Tactic("pad-8", "x"), tactics.Tactic("pad-4", "x")], other)], ["pad-4", "pad-8"])


class StagnationHintTest(unittest.TestCase):
    def test_hint_moves_toward_the_faster_sibling(self):
        from tests.test_policies import FakeMember
        task = load_task(os.path.join(util.TASKS, "vector_add.json"))
        start = task.start_genome()
        names = list(task.tunables)
        other = dict(start[1])
        for k in names:  # a different valid genome
            vals = task.tunables[k]
            other[k] = vals[(vals.index(start[1][k]) + 1) % len(vals)]
            if task.genome_ok((0, other)):
                break
        best = FakeMember(1, (0, other), fitness=1.0, generation=0)
        slow = [(0, dict(start[1], UNROLL=u)) for u in (1, 2, 4)]
        members = [best] + [FakeMember(i, g, fitness=2.0, generation=i) for i, g in zip((2, 3, 4), slow)]
        self.assertTrue(population.stagnant(members))
        hinted = []
        for seed in range(20):
            pol = SearchPolicy(task, random.Random(seed))
            props = pol.propose(members, 1)
            hinted += [p for p in props if p.note and p.note.startswith("hint:")]
            self.assertEqual(pol.hints, len([p for p in props if p.note]))
        self.assertGreater(len(hinted), 0)
        self.assertIn("candidate 1 (1 ms) is faster than", hinted[0].note)
        self.assertIn("differs in", hinted[0].note)
        best.generation = 4  # the best is recent: no stagnation, no hint
        for seed in range(20):
            self.assertFalse(any(p.note for p in SearchPolicy(task, random.Random(seed)).propose(members, 1)))


class RuleLearningTest(Fixture):
    BAD = ('cake.kernel @k(%x: !cake.tensor<[N], f32> {cake.name = "x"}, %z: !cake.tensor<[N], f32> {cake.name = "z"})\n'
           '    attributes {target = "sm_90a", block = array<i64: 128>, symbols = ["N"],\n'
           '                grid = affine_map<()[n] -> (n ceildiv 1024)>} {\n'
           "  %i = cake.thread_id x\n"
           "  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>\n"
           "  cake.store %v, %z[%i] masked : vector<4xf32>, !cake.tensor<[N], f32>\n  cake.return\n}\n")

    @util.needs_tools
    def test_clusters_propose_and_accept_on_features(self):
        cake_opt = os.path.join(util.BIN, "cake-opt")
        for i in range(2):
            self.add(self.BAD + f"// {i}", status="failed", failure="wrong_result")
        self.add(self.BAD.replace("vector<4xf32>", "vector<2xf32>"), status="compiled")
        self.assertEqual(learn.features(self.BAD, cake_opt),
                         {"op:cake.kernel", "op:cake.thread_id", "op:cake.thread_id->index", "op:cake.load",
                          "op:cake.load->vector<4xf32>", "op:cake.store", "op:cake.return", "threads>=128"})
        props = learn.propose(self.db, cake_opt=cake_opt)
        feats = [p.feature for p in props]
        self.assertIn("op:cake.load->vector<4xf32>", feats)
        self.assertNotIn("op:cake.load", feats)  # the passing candidate has it too
        p = props[0]
        self.assertEqual(p.key[0], "wrong_result")
        self.assertIn('pdl.apply_native_rewrite "cakeReport"', p.pdl())
        # A cake-opt that prints the IR's view but cannot load rules: only the predicate is checked.
        fake = self.write("bin/cake-opt", f'#!/bin/sh\ncase "$*" in *--help*) echo usage;; *) exec {cake_opt} "$@";; esac\n',
                          0o755)
        ok, why = learn.accept(self.db, p, fake, os.path.join(self.tmp, "w"))
        self.assertTrue(ok, why)
        self.assertIn("feature predicate only", why)

    @util.needs_tools
    def test_members_that_do_not_parse_teach_nothing(self):
        """cake-opt stops at IR it cannot read before any rule runs: such a cluster has no feature."""
        garbage = "cake.kernel @k() {\n  %v = cake.load %x[%i] masked : !cake.tensor<[N], f32> -> vector<4xf32>\n}\n"
        for i in range(2):
            self.add(garbage + f"// {i}", status="failed", failure="wrong_result")
        self.add(self.BAD, status="compiled")
        self.assertEqual(learn.propose(self.db, cake_opt=os.path.join(util.BIN, "cake-opt")), [])

    @util.needs_tools
    def test_accepted_rule_runs_in_cake_opt_and_gets_a_lit_test(self):
        cake_opt = os.path.join(util.BIN, "cake-opt")
        util.require_feature(self, learn.rules_supported(cake_opt), "cake-opt has no --cake-load-rules")
        with open(GEMM) as f:
            gemm = f.read()
        with open(os.path.join(util.ROOT, "examples", "vector_add.mlir")) as f:
            vadd = f.read()
        # Two failing members with wgmma (a made-up runtime failure class) and a passing one without.
        self.add(gemm, status="failed", failure="launch_failure")
        self.add(gemm + "\n// again\n", status="failed", failure="launch_failure")
        self.add(vadd, status="compiled")
        props = [p for p in learn.propose(self.db, cake_opt=cake_opt) if p.feature == "op:cake.wgmma.fence"]
        self.assertTrue(props)
        ok, why = learn.accept(self.db, props[0], cake_opt, os.path.join(self.tmp, "w"))
        self.assertTrue(ok, why)
        # The test goes to one folder, the rule to another (rules/learned/ in the repository); the
        # test's RUN lines find the rule relative to themselves.
        test = learn.save(props[0], self.db, os.path.join(self.tmp, "learned"), os.path.join(self.tmp, "rules"),
                          cake_opt)
        rule = os.path.join(self.tmp, "rules", props[0].name + ".pdl")
        self.assertTrue(os.path.exists(rule))
        with open(test) as f:
            text = f.read()
        self.assertIn("// CHECK: [learned.launch-failure.cake-wgmma-fence]", text)
        self.assertIn(f"--cake-load-rules=%S/../rules/{props[0].name}.pdl", text)
        self.assertIn("RUN: cake-opt %S/Inputs/", text)  # the passing candidate, read by cake-opt
        res = subprocess.run([cake_opt, test, f"--cake-load-rules={rule}",
                              f"--cake-rule-{props[0].name}", "-o", os.devnull], capture_output=True, text=True)
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("[learned.launch-failure.cake-wgmma-fence]", res.stderr)
        # A rule that also flags the passing candidate is rejected.
        bad = learn.Proposal(("launch_failure", "", ""), "op:arith.constant", props[0].members)
        self.assertFalse(learn.accept(self.db, bad, cake_opt, os.path.join(self.tmp, "w"))[0])

    @util.needs_tools
    def test_block_size_rule_from_the_register_cap_carries_to_bf16(self):
        # The failure the kmeans_fp16 run met on the GPU machine's compiler: wgmma-128 (a 64-element
        # accumulator) at 1024 threads, where ptxas has 64 registers per thread. No single op
        # separates it (the same wgmma compiles at 512 threads), an op with a block size does.
        cake_opt = os.path.join(util.BIN, "cake-opt")
        util.require_feature(self, learn.rules_supported(cake_opt), "cake-opt has no --cake-load-rules")
        tools = Toolchain(util.BIN)
        by_name = {t.name: t for t in tactics.builtin(tools)}

        def kernel(task_file, ppb, tactic):
            task = load_task(os.path.join(util.TASKS, task_file))
            out, why = by_name[tactic].apply(tools, task.instantiate([0, {"PPB": ppb}]))
            self.assertIsNone(why, why)
            return out

        self.add(kernel("kmeans_fp16.json", 32, "tensorize-wgmma-128"), status="failed", failure="compile_error")
        self.add(kernel("kmeans_fp16.json", 16, "tensorize-wgmma-128"), status="measured")
        self.add(kernel("kmeans_fp16.json", 32, "tensorize-wgmma-64"), status="screened")
        props = learn.propose(self.db, 1, cake_opt=cake_opt)
        self.assertTrue(props)
        p = props[0]
        self.assertEqual((p.feature, p.threads), ("op:cake.wgmma.regs->vector<64xf32>", 1024))
        self.assertIn('"cakeBlockThreadsAtLeast"', p.pdl())
        ok, why = learn.accept(self.db, p, cake_opt, os.path.join(self.tmp, "w"))
        self.assertTrue(ok, why)
        rule = os.path.join(self.tmp, "w", p.name + ".pdl")
        self.assertTrue(learn.flags(cake_opt, rule, p.name, kernel("kmeans_bf16.json", 32, "tensorize-wgmma-128"))[0])
        self.assertFalse(learn.flags(cake_opt, rule, p.name, kernel("kmeans_bf16.json", 16, "tensorize-wgmma-128"))[0])

    @util.needs_tools
    def test_cli_learn_rules(self):
        for i in range(2):
            self.add(self.BAD + f"// {i}", status="failed", failure="wrong_result")
        env = dict(os.environ, PYTHONPATH=util.AGENT)
        argv = [sys.executable, "-m", "cake_agent", "learn", "rules", "--db", self.db.path]
        nobin = ["--bin", os.path.join(self.tmp, "nobin")]
        # No passing candidate of the class: nothing shows the feature is the cause, no rule (and
        # no IR needs reading).
        res = subprocess.run(argv + nobin, capture_output=True, text=True, env=env)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertNotIn("ACCEPT", res.stdout)
        self.add(self.BAD.replace("vector<4xf32>", "vector<2xf32>"), status="compiled")
        res = subprocess.run(argv + ["--bin", util.BIN], capture_output=True, text=True, env=env)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("ACCEPT learned.wrong-result.", res.stdout)
        # Without cake-opt (nor the bindings) nothing reads the IR: one line, exit 4, as for any missing tool.
        res = subprocess.run(argv + nobin, capture_output=True, text=True, env=env)
        self.assertEqual((res.returncode, res.stdout), (4, ""), res.stderr)
        self.assertIn("missing tool binary", res.stderr)
        self.assertNotIn("Traceback", res.stderr)

    def test_machine_failures_teach_nothing(self):
        """A missing ptxas fails every f32 kernel alike: its class is never learned from."""
        for i in range(3):
            self.add(self.BAD + f"// {i}", status="failed", failure="compile_missing")
            self.add(self.BAD + f"// llm {i}", status="failed", failure="llm_timeout")
        self.add(self.BAD.replace("vector<4xf32>", "vector<2xf32>"), status="compiled")
        self.assertEqual(learn.clusters(self.db), {})
        self.assertEqual(learn.propose(self.db), [])


class CalibrateFromDbTest(Fixture):
    def test_dataset_and_cli(self):
        model = lambda n: ["+", ["/", n, ["*", {"param": "dram_bandwidth_GBps"}, 1e9]],
                           ["*", {"param": "launch_overhead_us"}, 1e-6]]
        shapes = [{"N": 1 << 20}, {"N": 1 << 24}]
        for i, scale in enumerate((1.0, 1.3, 0.8, 1.1)):
            reps = [{"kernels": [{"sizes": s, "model": model(s["N"]), "predicted_time_ms": 0.01}]} for s in shapes]
            meas = [{"shape": s, "seed": 1, "status": "ok", "time_ms": scale * (s["N"] / 3e12 * 1e3 + 0.003),
                     "floor_ms": 0.0, "rel_err": 0.0, "record": {}} for s in shapes]
            self.add(f"ir{i}", status="measured", fitness=1.0, kind="measured_ms",
                     cost={"status": "ok", "predicted_ms": 0.01, "report": reps}, meas=meas)
        data, skipped = learn.calibration_dataset(self.db)
        self.assertEqual((len(data), skipped), (8, 0))
        profile = self.write_json("p.json", {"name": "t", "version": 1, "params": {
            "dram_bandwidth_GBps": 4800.0, "launch_overhead_us": 2.0}, "structure": {"sm_count": 132}})
        out = os.path.join(self.tmp, "new.json")
        rc = calibrate.main(["--from-db", self.db.path, "--profile", profile, "--holdout", "0", "-o", out])
        self.assertEqual(rc, 0)
        with open(out) as f:
            new = json.load(f)
        self.assertEqual(new["version"], 2)
        self.assertLess(new["params"]["dram_bandwidth_GBps"], 4800.0)  # measured slower than the profile said
        self.assertEqual(calibrate.main(["--from-db", os.path.join(self.tmp, "none.db"), "--profile", profile]), 2)

    def test_report_plots_predicted_vs_measured(self):
        reps = [{"kernels": [{"sizes": {"N": 4096}, "predicted_time_ms": 0.02}]}]
        for i, t in enumerate((0.01, 0.03, 0.05)):
            meas = [{"shape": {"N": 4096}, "seed": 1, "status": "ok", "time_ms": t, "floor_ms": 0.0,
                     "rel_err": 0.0, "record": {}}]
            self.add(f"ir{i}", status="measured", fitness=t, kind="measured_ms",
                     cost={"status": "ok", "predicted_ms": 0.02, "report": reps}, meas=meas)
        self.assertEqual(sorted(report.predicted_vs_measured(self.db, self.run)),
                         [(0.02, 0.01), (0.02, 0.03), (0.02, 0.05)])
        page = report.render(self.db, self.run)
        self.assertIn("Predicted vs measured time per candidate and shape (3 points", page)


if __name__ == "__main__":
    unittest.main()
