"""End to end: model-only evolution, --resume, cake db / report, bad environments, kill -9."""
import json
import os
import random
import signal
import subprocess
import sys
import time
import unittest

from tests import util

TASK = os.path.join(util.TASKS, "vector_add.json")


@util.needs_tools
class EvolveTest(util.TempDir):
    def evolve(self, *extra):
        return util.run_cli("evolve", TASK, "--db", self.db, "--bin", util.BIN, "--quiet", "--jobs", "2", *extra)

    def setUp(self):
        super().setUp()
        self.db = os.path.join(self.tmp, "e.db")

    def test_model_only_run_resume_db_and_report(self):
        rc, out, err = self.evolve("--backend", "model-only", "--candidates", "6", "--generation", "3",
                                   "--rng-seed", "1")
        self.assertEqual(rc, 0, err)
        # With cake-print-cost in cake-opt, model-only fitness is the predicted time, never a measurement.
        self.assertIn("fitness = the cost model's predicted time (not a measurement)", out)
        self.assertIn("PREDICTED by the cost model", out)
        db = util.open_db(self, self.db)
        rows = db.candidates(1)
        self.assertEqual(len(rows), 6)
        self.assertEqual({r["status"] for r in rows}, {"compiled"})
        self.assertTrue(all(r["fitness"] > 0 for r in rows))  # predicted ms
        self.assertEqual(len({r["ir_hash"] for r in rows}), 6)
        self.assertEqual(db.q("PRAGMA journal_mode")[0][0], "wal")
        self.assertEqual(db.q("SELECT COUNT(*) FROM compile_facts")[0][0], 6)
        self.assertEqual({r[0] for r in db.q("SELECT status FROM cost_reports")}, {"ok"})
        # --resume continues the same run to a larger budget, never repeating a candidate.
        rc, out, err = util.run_cli("evolve", "--db", self.db, "--resume", "--bin", util.BIN, "--quiet",
                                    "--candidates", "9", "--generation", "3")
        self.assertEqual(rc, 0, err)
        rows = db.candidates(1)
        self.assertEqual((len(rows), len({r["ir_hash"] for r in rows})), (9, 9))
        # A later --resume without budget flags keeps the run's budget (9), not the task's.
        rc, out, err = util.run_cli("evolve", "--db", self.db, "--resume", "--bin", util.BIN, "--quiet")
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(db.candidates(1)), 9)
        self.assertEqual(json.loads(db.run(1)["config"])["budget"]["candidates"], 9)
        self.assertEqual(max(r["generation"] for r in rows), 2)
        self.assertEqual(db.q("SELECT COUNT(*) FROM runs")[0][0], 1)
        # cake db and cake report.
        child = next(r for r in rows if r["parent_id"] is not None)
        rc, out, _ = util.run_cli("db", "lineage", str(child["id"]), "--db", self.db)
        self.assertEqual(rc, 0)
        self.assertEqual(out.splitlines()[0].split()[1], str(child["id"]))
        self.assertIn(f"candidate {child['parent_id']} ", out)
        rc, out, _ = util.run_cli("db", "best", "--db", self.db)
        self.assertIn("no measured candidate", out)
        rc, out, _ = util.run_cli("db", "runs", "--db", self.db)
        self.assertIn("9 candidates", out)
        html_path = os.path.join(self.tmp, "r.html")
        rc, out, _ = util.run_cli("report", "--db", self.db, "-o", html_path)
        self.assertEqual(rc, 0)
        with open(html_path) as f:
            page = f.read()
        self.assertIn("<svg", page)
        self.assertNotIn("<script", page)

    def test_failures_are_recorded_and_the_run_goes_on(self):
        bad = self.write("bad.mlir", "cake.kernel @vector_add( {{BLOCK}} {{VEC}} {{UNROLL}}\n")
        import json
        with open(TASK) as f:
            doc = json.load(f)
        doc["seeds"] = [os.path.join(util.TASKS, "seeds", "vector_add.mlir"), bad]
        task = self.write_json("two.json", doc)
        rc, out, err = util.run_cli("evolve", task, "--db", self.db, "--bin", util.BIN, "--quiet",
                                    "--backend", "model-only", "--candidates", "14", "--rng-seed", "4")
        self.assertEqual(rc, 0, err)
        rc, out, _ = util.run_cli("db", "failures", "--db", self.db)
        self.assertIn("verify_error", out)
        db = util.open_db(self, self.db)
        self.assertEqual(len(db.candidates(1)), 14)
        self.assertGreater(db.q("SELECT COUNT(*) FROM diagnostics")[0][0], 0)

    def test_missing_tool_and_no_gpu(self):
        rc, _, err = util.run_cli("evolve", TASK, "--db", self.db, "--bin", os.path.join(self.tmp, "nobin"))
        self.assertEqual(rc, 4)
        self.assertIn("missing tool binary", err)
        fake = self.fake_bin({"cake-run": util.FAKE_CAKE_RUN})
        self.write("refs/vector_add_ref.cubin", "r")
        env = dict(os.environ, FAKE_STATUS="no_device")
        proc = subprocess.run([os.path.join(util.AGENT, "cake"), "evolve", TASK, "--db", self.db, "--bin", fake,
                               "--refs", os.path.join(self.tmp, "refs"), "--backend", "local", "--quiet"],
                              capture_output=True, text=True, env=env)
        self.assertEqual(proc.returncode, 5, proc.stderr)
        self.assertIn("no GPU for the local backend", proc.stderr)
        self.assertEqual(util.open_db(self, self.db).run(1)["status"], "aborted")

    def test_missing_rule_file(self):
        rc, _, err = util.run_cli("evolve", TASK, "--db", self.db, "--bin", util.BIN, "--backend", "model-only",
                                  "--rules", os.path.join(self.tmp, "no-such-rule.mlir"))
        self.assertEqual(rc, 2)
        self.assertIn("--rules: no such file", err)

    def test_kill_9_loses_no_finished_record(self):
        """Kill evolve at random moments; every candidate it reported as recorded must be whole."""
        rng = random.Random()
        reported = set()
        argv = [sys.executable, "-m", "cake_agent", "evolve", TASK, "--db", self.db, "--bin", util.BIN,
                "--backend", "model-only", "--quiet", "--print-records", "--jobs", "2", "--candidates", "40",
                "--generation", "4"]
        for attempt in range(3):
            cmd = argv + (["--resume"] if attempt else [])
            proc = subprocess.Popen(cmd, cwd=util.AGENT, stdout=subprocess.PIPE, text=True)
            target = rng.randint(1, 4)
            seen = 0
            for line in proc.stdout:
                if line.startswith("recorded "):
                    reported.add(int(line.split()[1]))
                    seen += 1
                    if seen >= target:
                        break
            time.sleep(rng.uniform(0, 0.25))  # a random moment: mid-compile, mid-commit, between records
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            for line in proc.stdout:  # anything printed before the kill
                if line.startswith("recorded "):
                    reported.add(int(line.split()[1]))
            proc.stdout.close()
            db = util.open_db(self, self.db)
            self.assertEqual(db.q("PRAGMA integrity_check")[0][0], "ok")
            for cid in reported:
                row = db.candidate(cid)
                self.assertIsNotNone(row, f"candidate {cid} was reported recorded but is gone")
                self.assertEqual(row["status"], "compiled")
                self.assertIsNotNone(db.compile_facts(cid))
                self.assertEqual(len(db.q("SELECT 1 FROM cost_reports WHERE candidate_id=?", (cid,))), 1)
            # Nothing half-written: every candidate row has its cost report and, if compiled, its facts.
            self.assertEqual(db.q("SELECT COUNT(*) FROM candidates c WHERE NOT EXISTS (SELECT 1 FROM cost_reports r"
                                  " WHERE r.candidate_id=c.id) OR (c.status='compiled' AND NOT EXISTS"
                                  " (SELECT 1 FROM compile_facts f WHERE f.candidate_id=c.id))")[0][0], 0)
        rc, out, err = util.run_cli("evolve", "--db", self.db, "--resume", "--bin", util.BIN, "--quiet",
                                    "--candidates", "12", "--generation", "4")
        self.assertEqual(rc, 0, err)
        rows = util.open_db(self, self.db).candidates(1)
        self.assertGreaterEqual(len(rows), 12)
        self.assertEqual(len({r["ir_hash"] for r in rows}), len(rows))


if __name__ == "__main__":
    unittest.main()
