"""Evolution per bucket: generator tasks (docs/Tasks.md), libraries/kmeans/evolve.py's buckets and
tasks, and `cake library evolve | evolve-ingest | winners` end to end with the batch backend (a
stand-in cake-run)."""
import json
import math
import os
import subprocess
import sys

from tests import util
from cake_agent.task import TaskError, load_task, signature

KMEANS = os.path.join(util.ROOT, "libraries", "kmeans")
sys.path.insert(0, KMEANS)
import build as kbuild  # noqa: E402
import evolve as kmeans_evolve  # noqa: E402

GENERATOR = '''
def make(values, kernel):
    if values["A"] * values["B"] > 8:
        raise ValueError("A * B > 8 is not built")
    return f"// {values['style']} {kernel} a={values['A']} b={values['B']}\\n"
'''


class GeneratorTaskTest(util.TempDir):
    def task(self, **changes):
        if not os.path.exists(os.path.join(self.tmp, "gen.py")):
            self.write("gen.py", GENERATOR)
        d = {"name": "g", "generator": {"path": "gen.py", "function": "make", "fixed": {"style": "x"}},
             "kernel": "k", "tunables": {"A": {"values": [1, 2, 4]}, "B": {"values": [1, 2, 4]}},
             "shapes": [{"N": 3}], "reference": "r.cubin", "rtol": 1e-5, "floor": {"bytes": "N", "flops": "N"}}
        d.update(changes)
        return self.write_json("t.json", d)

    def test_genomes_the_generator_refuses_are_not_legal(self):
        t = load_task(self.task())
        self.assertEqual(t.instantiate(t.start_genome()), "// x k a=1 b=1\n")
        self.assertTrue(t.genome_ok((0, {"A": 2, "B": 4})))
        self.assertFalse(t.genome_ok((0, {"A": 4, "B": 4})))
        with self.assertRaisesRegex(TaskError, "A \\* B > 8 is not built"):
            t.instantiate((0, {"A": 4, "B": 4}))
        # The digest follows the generator's source, as it follows a seed's text.
        before = t.digest()
        self.write("gen.py", GENERATOR + "\n# changed\n")
        self.assertNotEqual(load_task(self.task()).digest(), before)

    def test_a_run_recorded_under_another_search_space_is_not_resumed(self):
        """A task rewritten with other tunables (a library bucket whose best configuration moved
        to another family) cannot continue a run whose candidates lie outside its space: `cake
        evolve --resume` says so instead of a KeyError deep in the search (session 48), and
        `library evolve` starts the bucket anew."""
        import argparse
        from cake_agent import cli, library_evolve
        old = load_task(self.task())
        recorded = [[0, {"A": 1, "B": 2}], [0, {"A": 2, "B": 4}]]
        self.assertEqual(old.foreign_genomes(recorded), [])
        new = load_task(self.task(tunables={"A": {"values": [1, 2, 4]}, "C": {"values": [3, 5]}},
                                  generator={"path": "gen.py", "function": "make", "fixed": {"style": "x", "B": 1}}))
        self.assertEqual(new.foreign_genomes(recorded), recorded)

        class Recorded:
            def run(self, i):
                return {"id": i, "task": "g", "task_path": new.path, "task_digest": old.digest(), "status": "running"}

            def last_run(self, name):
                return self.run(1)

            def genomes(self, run_id):
                return recorded

            def q(self, sql, params=()):
                return []
        args = argparse.Namespace(resume="1", task=None, db="x.db")
        with self.assertRaisesRegex(TaskError, "2 of its candidates are outside the task's search space now "
                                               ".*tunables now: A, C.*start a new run"):
            cli._open_run(args, Recorded())
        self.assertEqual(library_evolve._state(Recorded(), new), (None, "moved"))
        # the same space under a changed file (another budget, say): resumed, with a warning
        same = load_task(self.task(budget={"candidates": 30, "gpu_evals": 30}))
        self.assertNotEqual(same.digest(), old.digest())
        self.assertEqual(library_evolve._state(Recorded(), same)[1], "resume")

    def test_bad_generator_tasks_are_refused_with_the_reason(self):
        cases = [({"seeds": ["s.mlir"]}, "either 'seeds'"),
                 ({"generator": {"path": "gen.py", "function": "nope"}}, "has no function 'nope'"),
                 ({"generator": {"path": "missing.py", "function": "make"}}, "cannot load missing.py"),
                 ({"generator": "gen.py"}, "'generator' must be an object"),
                 ({"generator": {"path": "gen.py", "function": "make", "extra": 1}}, "unknown keys \\['extra'\\]"),
                 ({"start": {"A": 4, "B": 4}}, "the start values give no IR: .*A \\* B > 8")]
        for changes, message in cases:
            with self.subTest(changes=changes):
                self.write("s.mlir", "// seed\n")
                with self.assertRaisesRegex(TaskError, message):
                    load_task(self.task(**changes))
        self.write("broken.py", "raise RuntimeError('boom')\n")
        with self.assertRaisesRegex(TaskError, "loading broken.py raised RuntimeError: boom"):
            load_task(self.task(generator={"path": "broken.py", "function": "make"}))


def table():
    with open(os.path.join(KMEANS, "table.json")) as f:
        return json.load(f)


class KMeansBucketsTest(util.TempDir):
    def test_every_bucket_task_loads_and_starts_from_the_sweeps_best(self):
        paths, skipped = kmeans_evolve.tasks(KMEANS, self.tmp)
        self.assertGreater(len(paths), 20)
        points = kmeans_evolve.buckets(table())
        self.assertEqual(len(paths) + len(skipped), len(points))
        for path in paths:
            t = load_task(path)
            bucket, fam = t.data["comment"]["bucket"], t.data["comment"]["family"]
            self.assertIn(fam, kmeans_evolve.SEARCHED)
            ir = t.instantiate(t.start_genome())
            self.assertIn(f"cake.kernel @{t.kernel}(", ir)
            # The start is the family's configuration measured at the most points of the bucket that
            # it serves, and among those the least mean log time relative to each point's best.
            pts = points[bucket]
            configs = kmeans_evolve._config_families(pts[0]["dtype"])
            classes = kmeans_evolve._config_classes(pts[0]["dtype"])
            excluded = kmeans_evolve.NOT_SEARCHED_KEYS.get(fam, set())
            cands = {c for p in pts for c in p["ms"] if configs.get(c, {}).get("family") == fam
                     and not configs[c].get("table_only") and not excluded & set(configs[c]["params"])}
            cover = {c: [p for p in pts if c in p["ms"] and kmeans_evolve.refusal(
                fam, configs[c]["params"], kmeans_evolve.kernel_shape(fam, p)) is None] for c in cands}
            most = max(len(v) for v in cover.values())
            rel = {c: sum(math.log(p["ms"][c] / min(p["ms"].values())) for p in v) / len(v)
                   for c, v in cover.items() if len(v) == most}
            self.assertEqual(t.data["comment"]["start_config"], min(sorted(rel), key=rel.get), bucket)
            # ... as the table timed it: its narrowest D class serving the task's shapes.
            # ("evolved" marks a configuration evolution found: a name, not a kernel parameter.)
            plain = lambda q: {k: x for k, x in q.items() if k not in ("dtype", "index_bits", "evolved")}  # noqa: E731
            mine = plain(kmeans_evolve.params_of(t.start_genome()[1], t.data["generator"]["fixed"]["optional"]))
            start = [v for v in classes[t.data["comment"]["start_config"]] if plain(v["params"]) == mine]
            self.assertTrue(start, bucket)
            widest = max(v["max_d"] or math.inf for v in start)
            for v in classes[t.data["comment"]["start_config"]]:
                if v["max_d"] is not None and v["max_d"] < widest:
                    self.assertTrue(any(kmeans_evolve.refusal(fam, v["params"], s) for s in t.shapes), v["name"])
            for s in t.shapes:  # the task's shapes are the kernel's sizes of the bucket's points
                self.assertIn(s, [kmeans_evolve.kernel_shape(fam, p) for p in pts])
            # The floor bounds what was measured (a faster time is judged suspicious_fast).
            for s, best_ms in zip(t.shapes, t.data["comment"]["table_best_ms"]):
                self.assertLess(t.floor_seconds(s) * 1e3, best_ms, (bucket, s))
        for name, why in skipped.items():
            self.assertRegex(why, "none searched|outside the searched space|no searched .* configuration was measured")

    def test_domain_and_twins_limit_the_genomes(self):
        shapes = [{"B": 1, "N": 1000, "K": 300, "D": 16}]
        tunables, optional = kmeans_evolve.space("tcd", "bfloat16")
        fixed = {"family": "tcd", "dtype": "bfloat16", "optional": optional, "shapes": shapes}
        base = {k: 0 for k in optional}
        plain = dict(base, r=1, kn=2, v=1, index_bits=64)  # tcd without hx reads x at most twice: K <= 32
        with self.assertRaisesRegex(ValueError, "excludes the shape"):
            kmeans_evolve.instantiate(dict(fixed, **plain), "k")
        hoisted = dict(plain, hx=1)
        self.assertIn("@k(", kmeans_evolve.instantiate(dict(fixed, **hoisted), "k"))
        twin = kmeans_evolve.instantiate(dict(fixed, **dict(hoisted, index_bits=32)), "k")
        self.assertIn("index_bitwidth = 32", twin)
        self.assertEqual(tunables["index_bits"], [64, 32])
        self.assertNotIn("cs", tunables)  # table-only parameters are not searched


@util.needs_tools
class LibraryEvolveCommandTest(util.TempDir):
    def test_batch_generation_of_several_buckets_ingest_resume_and_winners(self):
        bin_dir = self.fake_bin({"cake-run": util.FAKE_CAKE_RUN})
        refs = os.path.join(self.tmp, "refs")
        self.write("refs/kmeans_lib_ref.cubin", "reference")
        db, work = os.path.join(self.tmp, "lib.db"), os.path.join(self.tmp, "work")
        paths, _ = kmeans_evolve.tasks(KMEANS, os.path.join(self.tmp, "probe"))
        names = sorted(load_task(p).data["comment"]["bucket"] for p in paths)
        chosen = [n for n in names if n.startswith("f32_")][:1] + [n for n in names if n.startswith("bf16_")][:1]
        args = ("library", "evolve", "--db", db, "--work", work, "--backend", "batch", "--bin", bin_dir,
                "--refs", refs, "--buckets", ",".join(chosen), "--candidates", "8", "--generation", "2",
                "--rng-seed", "1", "--jobs", "2")
        rc, out, err = util.run_cli(*args)
        self.assertEqual(rc, 0, out + err)
        gpu = os.path.join(work, "gpu")
        batches = sorted(d for d in os.listdir(gpu) if os.path.isdir(os.path.join(gpu, d)))
        self.assertEqual(batches, sorted(f"kmeans_lib_{n}-g0" for n in chosen))
        with open(os.path.join(gpu, "order.txt")) as f:  # run.sh's order: the one --buckets gave
            self.assertEqual(f.read().split(), [f"kmeans_lib_{n}-g0" for n in chosen])
        self.assertIn("run.sh", out)
        # One cake-run for every bucket's batch (run.sh passes it).
        self.assertTrue(os.path.isfile(os.path.join(gpu, "cake-run")))
        self.assertFalse(any(os.path.exists(os.path.join(gpu, b, "cake-run")) for b in batches))
        # Again before the GPU ran: every bucket waits for its batch, nothing new is compiled.
        rc, out, err = util.run_cli(*args)
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(out.count("waiting for its batch"), 2)
        # The stand-in GPU: each bucket's start 3 ms, its last candidate 2 ms, the rest 2.5.
        d = util.open_db(self, db)
        times, fastest = {}, {}
        for run in d.q("SELECT id FROM runs"):
            cands = d.q("SELECT id, tactics FROM candidates WHERE run_id=? AND status='pending_gpu' ORDER BY id",
                        (run["id"],))
            self.assertGreater(len(cands), 1)
            fastest[run["id"]] = cands[-1]["id"]
            times.update({f"kernels/c{c['id']}.cubin": 2.5 for c in cands})
            times.update({f"kernels/c{cands[0]['id']}.cubin": 3.0, f"kernels/c{cands[-1]['id']}.cubin": 2.0})
        time_file = self.write_json("times.json", times)
        proc = subprocess.run(["bash", os.path.join(gpu, "run.sh")], capture_output=True, text=True,
                              env=dict(os.environ, FAKE_TIME_FILE=time_file))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        rc, out, err = util.run_cli("library", "evolve-ingest", "--db", db, "--work", work)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("ingested 2 batches", out)
        # The cost model's profile is refitted to the measurements for the next generation's screen.
        self.assertIn("calibration: ", out)
        self.assertTrue(os.path.isfile(os.path.join(work, "profiles", "h200.json")))
        d = util.open_db(self, db)
        statuses = {r["status"] for r in d.q("SELECT status FROM candidates")}
        self.assertIn("measured", statuses)
        self.assertLessEqual(statuses, {"measured", "screened"})  # screened: the cost model kept them off the GPU
        self.assertEqual({r["task_class"] for r in d.q("SELECT task_class FROM runs")}, {"kmeans_lib"})
        # Each run's first candidate is its task's start genome (the sweep's best).
        for run in d.q("SELECT * FROM runs"):
            t = load_task(run["task_path"])
            first = d.q("SELECT signature FROM candidates WHERE run_id=? ORDER BY id LIMIT 1", (run["id"],))[0]
            self.assertEqual(first["signature"], signature(t.start_genome()))
        # Resuming exports the next generation of both buckets, screened with the refitted profile;
        # winners compares with the start.
        env_before = os.environ.get("CAKE_PROFILE_DIR")
        rc, out, err = util.run_cli(*args)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("cost model: the profiles of", out)
        self.assertEqual(os.environ.get("CAKE_PROFILE_DIR"), env_before)
        self.assertEqual(len([d for d in os.listdir(gpu) if d.endswith("-g1")]), 2)
        out_json = os.path.join(self.tmp, "winners.json")
        rc, out, err = util.run_cli("library", "winners", "--db", db, "--out", out_json)
        self.assertEqual(rc, 0, err)
        with open(out_json) as f:
            rows = json.load(f)
        self.assertEqual(len(rows), 2)
        for r in rows:
            self.assertEqual(r["best"]["candidate"], fastest[r["run"]])
            self.assertAlmostEqual(r["best_over_start"], 1.5)
            self.assertEqual(len(r["start"]["ms"]), len(load_task(
                os.path.join(work, "tasks", r["task"] + ".json")).shapes))
        # --emit keeps the winners the plan does not hold, as parameters build.py's plan takes.
        evolved = os.path.join(self.tmp, "evolved.json")
        rc, out, err = util.run_cli("library", "winners", "--db", db, "--emit", evolved)
        self.assertEqual(rc, 0, err)
        swept = {kbuild.variant_name(p) for p in kbuild.plan(["bfloat16", "float32"], 8, evolved_path=None)}
        with open(evolved) as f:
            entries = json.load(f)["configs"]
        want = set()
        for r in rows:
            if r["best"]["tactics"]:  # a rewritten kernel is not a configuration: not emitted
                continue
            p = dict(kmeans_evolve.params_of(r["best"]["genome"][1], r["fixed"]["optional"]), dtype=r["fixed"]["dtype"])
            p.pop("index_bits", None)
            if kbuild.variant_name(p) not in swept:
                want.add(kbuild.variant_name(p))
        self.assertEqual({kbuild.variant_name(e["params"]) for e in entries}, want)
        planned = {kbuild.variant_name(p) for p in kbuild.plan(["bfloat16", "float32"], 8, evolved_path=evolved)}
        self.assertEqual(planned - swept, want)
        self.assertIn(f"{len(want)} new configurations", err)
        # Emitting again adds nothing.
        rc, out, err = util.run_cli("library", "winners", "--db", db, "--emit", evolved)
        self.assertIn("0 new configurations", err)

    def test_update_variants_builds_only_the_evolved_configurations(self):
        variants = os.path.join(self.tmp, "variants.json")
        with open(os.path.join(KMEANS, "variants.json")) as f:
            committed = json.load(f)
        self.write_json("variants.json", committed)
        new = {"dtype": "bfloat16", "r": 1, "kn": 4, "v": 2, "kw": 4}  # split-K warps at v 2: not planned
        self.assertNotIn(kbuild.variant_name(new), {v["name"] for v in committed["variants"]})
        # The definition's own evolved configurations stay planned beside the new one.
        kept = kbuild.evolved(list(kbuild.family.DTYPES))
        evolved = self.write_json("evolved.json", {"configs": [{"params": p} for p in kept] + [{"params": new}]})
        proc = subprocess.run([sys.executable, os.path.join(KMEANS, "build.py"), "--out", os.path.join(self.tmp, "o"),
                               "--tools", util.BIN, "--update-variants", "--variants", variants,
                               "--evolved", evolved], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("2 added, 0 renamed, 0 dropped", proc.stdout)  # the configuration and its 32-bit twin
        with open(variants) as f:
            names = [v["name"] for v in json.load(f)["variants"]]
        self.assertEqual(set(names) - {v["name"] for v in committed["variants"]},
                         {kbuild.variant_name(new), kbuild.variant_name(dict(new, index_bits=32))})
        self.assertEqual(names, sorted(names))

    def test_evolved_finalists_list_each_bucket_point_with_its_best(self):
        """bench/library/evolved_finalists.py: an evolved configuration (both index widths) at
        every table point of its bucket, beside the point's best configurations; nothing else."""
        table = {"points": [
            {"dtype": "float16", "B": 1, "N": 7, "D": 10, "K": 95, "ms": {"a": 0.003, "b": 0.002, "c": 0.004}},
            {"dtype": "float16", "B": 2, "N": 9, "D": 11, "K": 70, "ms": {"a": 0.001}},
            {"dtype": "float32", "B": 1, "N": 7, "D": 10, "K": 95, "ms": {"a": 0.003}}]}
        buckets = {kmeans_evolve.bucket_of(p) for p in table["points"]}
        self.assertEqual(len(buckets), 2)
        new = {"dtype": "float16", "r": 1, "kn": 4, "v": 2, "kw": 4}
        evolved = self.write_json("evolved.json", {"configs": [
            {"params": new, "bucket": kmeans_evolve.bucket_of(table["points"][0])}]})
        proc = subprocess.run([sys.executable, os.path.join(util.ROOT, "bench", "library", "evolved_finalists.py"),
                               "--evolved", evolved, "--table", self.write_json("table.json", table), "--keep", "2"],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = json.loads(proc.stdout)
        p = kbuild.evolved_params({"params": new})
        mine = [kbuild.config_name(p), kbuild.config_name(dict(p, index_bits=32))]
        self.assertEqual(rows, [{"dtype": "float16", "B": 1, "N": 7, "D": 10, "K": 95, "configs": mine + ["b", "a"]},
                                {"dtype": "float16", "B": 2, "N": 9, "D": 11, "K": 70, "configs": mine + ["a"]}])
        proc = subprocess.run([sys.executable, os.path.join(util.ROOT, "bench", "library", "evolved_finalists.py"),
                               "--evolved", os.path.join(self.tmp, "missing.json")], capture_output=True, text=True)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("missing.json", proc.stderr)

    def test_evolved_configurations_have_names_of_their_own(self):
        """An evolved configuration that differs from a planned one only in what the family's
        configuration name leaves out (wgmma's buffers and stages) is its own configuration: the
        table and the router must tell their times apart (session 47 found three sharing names)."""
        swept = kbuild.with_twins(kbuild.plan(["bfloat16"], 8, evolved_path=None))
        planned = next(p for p in swept if kbuild.family_of(p) == "wgmma" and not kbuild.index_bits(p) == 32)
        new = dict(planned, xs=planned["xs"] + 1)
        self.assertEqual(kbuild.family.FAMILIES["wgmma"].config(new), kbuild.family.FAMILIES["wgmma"].config(planned))
        evolved = self.write_json("evolved.json", {"configs": [{"params": new}]})
        plan = kbuild.with_twins(kbuild.plan(["bfloat16"], 8, evolved_path=evolved))
        self.assertEqual(len(plan), len(swept) + 2)
        keys = [(p["dtype"], kbuild.config_name(p), kbuild.family.FAMILIES[kbuild.family_of(p)].widest(p)) for p in plan]
        self.assertEqual(len(keys), len(set(keys)))
        self.assertIn("evo_" + kbuild.variant_name(new).split("_", 2)[2], {k[1] for k in keys})

    def test_a_subset_routes_the_grid_as_the_whole_library(self):
        """needed_variants.routing_closure: a library of only the kernels the whole library picks
        and times for some shapes may rank others first (the router scores only what a library
        has); the closure adds what the ranking needs, and a Router over the result routes every
        held-out grid shape as the whole library does, candidates in the same order."""
        sys.path.insert(0, os.path.join(util.ROOT, "bench", "library"))
        import needed_variants
        from prune_package import needed
        from cake_library.route import Router
        with open(os.path.join(KMEANS, "variants.json")) as f:
            variants = json.load(f)["variants"]
        with open(os.path.join(KMEANS, "table.json")) as f:
            library = {"op": "kmeans_assign", "variants": variants, "table": json.load(f)}
        with open(os.path.join(KMEANS, "grid.json")) as f:
            shapes = [s for s in json.load(f)["shapes"] if s["heldout"]]
        full = Router(library)

        def differing(names):
            sub = Router(dict(library, variants=[v for v in variants if v["name"] in names]), variants_checked=True)
            keys = [(s["B"], s["N"], s["D"], s["K"], s["dtype"]) for s in shapes]
            return [k for k in keys if needed_variants._candidate_kernels(sub, k, 4)
                    != needed_variants._candidate_kernels(full, k, 4)]     # a NoKernel's text differs too

        names = needed(library, shapes, None, 4)
        self.assertTrue(differing(names))
        grown, wrong = needed_variants.routing_closure(library, names, shapes, 4)
        self.assertLessEqual(names, grown)
        # Exact: a load-width group is judged at the neighbours by members the shape cannot take,
        # so the closure holds a variant of every member (session 48; before, 7 of the grid's
        # shapes, 1 of these, kept another ranking).
        self.assertEqual(wrong, [])
        self.assertEqual(differing(grown), [])

    def test_a_spent_bucket_resumes_when_given_a_larger_budget(self):
        """A bucket's run ends when its candidates are spent; `evolve --candidates N` with N above
        what it recorded continues it (the next generation), N at or below it leaves it done."""
        from cake_agent import library_evolve

        class SpentRun:
            def last_run(self, name):
                return {"id": 1, "status": "done", "task_digest": "d"}

            def q(self, sql, params=()):
                return [] if "batches" in sql else [{"n": 12}]

        task = type("Task", (), {"name": "kmeans_lib_x", "digest": lambda self: "d"})()
        self.assertEqual(library_evolve._state(SpentRun(), task)[1], "done")
        self.assertEqual(library_evolve._state(SpentRun(), task, 12)[1], "done")
        self.assertEqual(library_evolve._state(SpentRun(), task, 24)[1], "resume")

    def test_build_subset_refuses_bad_lists_by_name(self):
        """build.py --subset: a list it cannot read, or a name the plan lacks, is exit 2 naming
        it, before anything is compiled."""
        for doc, want in (("{", "not a JSON list of variant names"),
                          ('["km_f16_nothing"]', "1 variants the plan does not have (first: km_f16_nothing)")):
            path = self.write("subset.json", doc)
            proc = subprocess.run([sys.executable, os.path.join(KMEANS, "build.py"), "--out",
                                   os.path.join(self.tmp, "o"), "--subset", path], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn(want, proc.stderr)
            self.assertFalse(os.path.exists(os.path.join(self.tmp, "o", "library.json")))

    def test_build_update_variants_refuses_an_unreadable_file(self):
        """build.py --update-variants: a --variants file that is missing or not a variants.json
        is exit 2 naming it (was a traceback), before anything is compiled."""
        for path, want in ((os.path.join(self.tmp, "none.json"), "FileNotFoundError"),
                           (self.write("v.json", '{"variants": [{"dtype": "float16"}]}'), "KeyError: 'name'"),
                           (self.write("w.json", "{"), "JSONDecodeError")):
            proc = subprocess.run([sys.executable, os.path.join(KMEANS, "build.py"), "--out", os.path.join(self.tmp, "o"),
                                   "--update-variants", "--variants", path], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn(f"build.py: --variants {path}: not a variants.json", proc.stderr)
            self.assertIn(want, proc.stderr)
            self.assertNotIn("Traceback", proc.stderr)

    def test_bad_definitions_buckets_and_results_are_named(self):
        rc, out, err = util.run_cli("library", "evolve", "--definition", os.path.join(util.ROOT, "libraries", "kda"),
                                    "--db", os.path.join(self.tmp, "x.db"), "--work", self.tmp)
        self.assertEqual(rc, 2)
        self.assertIn("no evolve.py", err)
        rc, out, err = util.run_cli("library", "evolve", "--db", os.path.join(self.tmp, "x.db"), "--work", self.tmp,
                                    "--buckets", "f16_D0-8_K0-16_Wnone")
        self.assertEqual(rc, 2)
        self.assertIn("no evolvable bucket", err)
        # evolve-ingest: no batch folder is an error; a results file cut short is skipped, named.
        db = os.path.join(self.tmp, "x.db")
        rc, out, err = util.run_cli("library", "evolve-ingest", "--db", db, "--work", os.path.join(self.tmp, "none"))
        self.assertEqual(rc, 2)
        self.assertIn("no such folder", err)
        self.write("w/gpu/b-g0/results.json", '{"batch": 1, "resu')
        rc, out, err = util.run_cli("library", "evolve-ingest", "--db", db, "--work", os.path.join(self.tmp, "w"))
        self.assertEqual(rc, 0, err)
        self.assertIn("not a batch results file", err)
        self.assertIn("ingested 0 batches", out)
