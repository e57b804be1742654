"""The batch backend: export a generation, run it 'elsewhere' (a stand-in cake-run), ingest."""
import json
import os
import subprocess
import sys
import unittest

from tests import util


@util.needs_tools
class BatchTest(util.TempDir):
    def setUp(self):
        super().setUp()
        self.bin = self.fake_bin({"cake-run": util.FAKE_CAKE_RUN})
        self.write("refs/gemm_ref.cubin", "reference")
        self.db = os.path.join(self.tmp, "b.db")
        self.out = os.path.join(self.tmp, "gen0")

    def cake(self, *argv):
        return util.run_cli(*argv)[0]

    def export(self):
        rc = self.cake("evolve", os.path.join(util.TASKS, "gemm.json"), "--db", self.db, "--backend", "batch",
                       "--bin", self.bin, "--refs", os.path.join(self.tmp, "refs"), "--candidates", "3",
                       "--generation", "3", "--batch-dir", self.out, "--quiet", "--rng-seed", "3")
        self.assertEqual(rc, 0)

    def run_batch(self, **env):
        return subprocess.run([sys.executable, os.path.join(self.out, "run_batch.py")], capture_output=True,
                              text=True, env=dict(os.environ, **env))

    def test_self_contained_folder_and_ingest(self):
        self.export()
        for f in ("cake-run", "run_batch.py", "plan.json", "refs/gemm_ref.cubin"):
            self.assertTrue(os.path.exists(os.path.join(self.out, f)), f)
        with open(os.path.join(self.out, "plan.json")) as f:
            plan = json.load(f)
        self.assertEqual(len(plan["jobs"]), 3 * 3)
        self.assertEqual(len({j["seed"] for j in plan["jobs"]}), 9)
        for j in plan["jobs"]:
            self.assertTrue(os.path.exists(os.path.join(self.out, j["cubin"])))
        # The runner needs only python3 and the cake-run beside it (here the stand-in).
        proc = self.run_batch(FAKE_TIME_MS="3.0")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(self.cake("batch-ingest", "--db", self.db, os.path.join(self.out, "results.json")), 0)
        db = util.open_db(self, self.db)
        rows = db.q("SELECT status, fitness FROM candidates")
        self.assertEqual([(r["status"], r["fitness"]) for r in rows], [("measured", 3.0)] * 3)
        self.assertEqual(db.q("SELECT COUNT(*) AS n FROM measurements")[0]["n"], 9)
        # Ingesting twice is refused; the run resumes to its budget.
        self.assertEqual(self.cake("batch-ingest", "--db", self.db, os.path.join(self.out, "results.json")), 2)
        self.assertEqual(db.run(1)["status"], "paused")

    def test_cost_model_screens_what_reaches_the_gpu(self):
        rc = self.cake("evolve", os.path.join(util.TASKS, "gemm.json"), "--db", self.db, "--backend", "batch",
                       "--bin", self.bin, "--refs", os.path.join(self.tmp, "refs"), "--candidates", "12",
                       "--generation", "3", "--screen", "3", "--batch-dir", self.out, "--quiet",
                       "--rng-seed", "3")
        self.assertEqual(rc, 0)
        db = util.open_db(self, self.db)
        rows = db.q("SELECT c.id, c.status, r.predicted_ms FROM candidates c JOIN cost_reports r "
                    "ON r.candidate_id = c.id")
        sent = [r["predicted_ms"] for r in rows if r["status"] == "pending_gpu"]
        kept = [r["predicted_ms"] for r in rows if r["status"] == "screened"]
        # Generation 0 proposes 9: the seed, 4 of its tactic children (recorded with the seed as
        # their parent) and 4 more of gemm's 5 genomes.
        self.assertEqual((len(rows), len(sent), len(kept)), (9, 3, 6))
        children = db.q("SELECT c.parent_id FROM candidates c WHERE c.tactics != '[]'")
        self.assertEqual(len(children), 4)
        self.assertEqual({r["parent_id"] for r in children}, {1})
        self.assertLessEqual(max(sent), min(kept))  # the GPU gets the least predicted times
        with open(os.path.join(self.out, "plan.json")) as f:
            self.assertEqual(len(json.load(f)["jobs"]), 3 * 3)

    def test_tampering_and_speed_of_light(self):
        self.export()
        plan_path = os.path.join(self.out, "plan.json")
        with open(plan_path) as f:
            plan = json.load(f)
        plan["jobs"][0]["args"][plan["jobs"][0]["args"].index("--seed") + 1] = "1"  # a friendlier seed
        with open(plan_path, "w") as f:
            json.dump(plan, f)
        self.run_batch(FAKE_TIME_MS="1e-7")
        self.cake("batch-ingest", "--db", self.db, os.path.join(self.out, "results.json"))
        classes = sorted(r["failure_class"] for r in util.open_db(self, self.db).candidates(1))
        self.assertEqual(classes.count("mismatch"), 1)
        self.assertEqual(classes.count("suspicious_fast"), 2)

    def test_no_gpu_ingests_nothing(self):
        self.export()
        proc = self.run_batch(FAKE_STATUS="no_device")
        self.assertEqual(proc.returncode, 5)
        self.assertEqual(self.cake("batch-ingest", "--db", self.db, os.path.join(self.out, "results.json")), 5)
        self.assertEqual({r["status"] for r in util.open_db(self, self.db).candidates(1)}, {"pending_gpu"})


if __name__ == "__main__":
    unittest.main()
