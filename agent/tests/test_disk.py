"""A full disk, for real: SQLite's page limit (SQLITE_FULL), a file-size limit (RLIMIT_FSIZE with
SIGXFSZ ignored, so writes fail with EFBIG) on the harness and the tools it runs, and /dev/full
(ENOSPC). Each must give one line naming the path, exit code 6, no traceback, a database that passes
``PRAGMA integrity_check`` with no half-written record, and ``--resume`` must continue."""
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import textwrap
import unittest

from tests import util

TASK = os.path.join(util.TASKS, "vector_add.json")


def file_size_limit(nbytes):
    """A preexec_fn: writes past ``nbytes`` in any file fail with EFBIG (in the child and its tools)."""
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # inherited through exec: tools get EFBIG too
        resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, nbytes))
    return apply


def whole(case, db):
    """The database is consistent: integrity_check, and every candidate has all its facts."""
    case.assertEqual(db.q("PRAGMA integrity_check")[0][0], "ok")
    case.assertEqual(db.q("SELECT COUNT(*) FROM candidates c WHERE NOT EXISTS (SELECT 1 FROM cost_reports r"
                          " WHERE r.candidate_id=c.id) OR (c.status='compiled' AND NOT EXISTS"
                          " (SELECT 1 FROM compile_facts f WHERE f.candidate_id=c.id))")[0][0], 0)


class Proposal:
    policy, parent_id, genome, tactics, signature, note = "test", None, None, (), None, None

    def __init__(self, ir):
        self.ir = ir


class DatabaseFullTest(util.TempDir):
    def test_sqlite_full_rolls_back_the_record_and_recording_resumes(self):
        from cake_agent import disk
        from cake_agent.db import Database
        from cake_agent.evaluator import Evaluation
        db = util.open_db(self, os.path.join(self.tmp, "full.db"))
        db.conn.execute("INSERT INTO runs (task, backend, policy, status) VALUES ('t', 'model-only', 'test', 'running')")
        pages = db.q("PRAGMA page_count")[0][0]
        db.conn.execute(f"PRAGMA max_page_count={pages + 6}")  # a database that can grow by 6 pages

        def record(i):
            ev = Evaluation(f"// candidate {i}\n" + "cake.barrier\n" * 400, os.path.join(self.tmp, "w"))
            ev.status = "compiled"
            ev.compile = {"registers": 8, "spill_stores": 0, "spill_loads": 0, "smem_bytes": 0, "barriers": 0,
                          "stack_bytes": 0, "seconds": 0.1, "cubin": "c", "manifest": "m", "entry": "k"}
            ev.diagnostics = [{"rule": "", "severity": "warning", "line": 1, "col": 1, "op": "x", "message": "m" * 500,
                               "hint": ""}]
            return db.record(1, 0, ev, Proposal(ev.ir), "model-only")

        recorded, error = 0, None
        for i in range(100):
            try:
                record(i)
                recorded += 1
            except sqlite3.Error as e:
                error = e
                break
        self.assertIsNotNone(error, "the page limit was never reached")
        self.assertGreater(recorded, 0)
        self.assertTrue(disk.is_disk_error(error), error)
        self.assertIn("database or disk is full", disk.describe_sqlite(error))
        self.assertFalse(db.conn.in_transaction)
        self.assertEqual(len(db.candidates(1)), recorded)  # the failed record left nothing behind
        whole(self, db)
        db.conn.execute("PRAGMA max_page_count=1000000")  # space again
        record(999)
        self.assertEqual(len(db.candidates(1)), recorded + 1)
        whole(self, Database(db.path))


@util.needs_tools
class EvolveDiskFullTest(util.TempDir):
    def evolve(self, *argv, limit=None):
        return subprocess.run([sys.executable, "-m", "cake_agent", "evolve", *argv, "--bin", util.BIN, "--quiet",
                               "--backend", "model-only", "--jobs", "2"], cwd=util.AGENT, capture_output=True,
                              text=True, preexec_fn=file_size_limit(limit) if limit else None)

    def assert_one_line_exit_6(self, proc, *needles):
        self.assertEqual(proc.returncode, 6, proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertTrue(lines[0].startswith("cake: error: disk full: cannot write "), lines[0])
        for n in needles:
            self.assertIn(n, lines[0])
        return lines[0]

    def test_database_reaches_the_file_size_limit(self):
        db_path = os.path.join(self.tmp, "d.db")
        # Each record adds ~45 KB to the -wal file: the limit stops the run after a few candidates.
        proc = self.evolve(TASK, "--db", db_path, "--candidates", "60", "--generation", "4", limit=300_000)
        line = self.assert_one_line_exit_6(proc, f"the database {db_path}", "--resume 1")
        self.assertIn("SQLITE_", line)
        db = util.open_db(self, db_path)
        whole(self, db)
        before = len(db.candidates(1))
        self.assertGreater(before, 0)
        self.assertLess(before, 60)
        # Space again: --resume continues the same run, never repeating a candidate.
        proc = self.evolve("--db", db_path, "--resume", "--candidates", str(before + 4), "--generation", "4")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        rows = db.candidates(1)
        self.assertEqual(len(rows), before + 4)
        self.assertEqual(len({r["ir_hash"] for r in rows}), len(rows))
        whole(self, db)

    def test_tactic_input_reaches_the_file_size_limit(self):
        """A tactic's input file that cannot be written is named (evolve turns it into exit 6). Run
        apart: evolve's environment check writes the seed's kernel.mlir first."""
        code = ("import sys\nsys.path.insert(0, %r)\nfrom cake_agent import tactics\n"
                "from cake_agent.tools import Toolchain\ntools = Toolchain(%r)\n"
                "t = tactics.Tactic('any', 'builtin.module(cse)')\n"
                "try:\n    t._apply(tools, '// ' + 'x' * 200000, 30)\n"
                "except OSError as e:\n    print(e.filename, e.strerror)\n") % (util.AGENT, util.BIN)
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              preexec_fn=file_size_limit(150_000))
        self.assertTrue(proc.stdout.strip().endswith("in.mlir File too large"), proc.stdout + proc.stderr)

    def test_work_directory_reaches_the_file_size_limit(self):
        with open(TASK) as f:
            doc = json.load(f)
        with open(os.path.join(util.TASKS, doc["seeds"][0])) as f:
            seed = f.read()
        doc["seeds"] = [self.write("big.mlir", seed + "// " + "x" * 200_000 + "\n")]  # a 200 KB kernel.mlir
        task = self.write_json("big.json", doc)
        db_path = os.path.join(self.tmp, "w.db")
        # Without tactics: their input file (in the system temp dir) would hit the limit first.
        proc = self.evolve(task, "--db", db_path, "--candidates", "4", "--no-builtin-tactics", limit=150_000)
        self.assert_one_line_exit_6(proc, "kernel.mlir: File too large", os.path.join(self.tmp, "cake-agent-work"))
        db = util.open_db(self, db_path)
        whole(self, db)
        self.assertEqual(len(db.candidates(1)), 0)
        run = db.run(1)
        self.assertEqual(run["status"], "interrupted")  # the database itself was writable: it says why
        self.assertIn("kernel.mlir", run["note"])
        proc = self.evolve("--db", db_path, "--resume", "--candidates", "3")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(len(db.candidates(1)), 3)
        whole(self, db)

    @unittest.skipUnless(__import__("cake_agent.evaluator").evaluator.find_ptxas(), "no ptxas")
    def test_compiler_output_reaches_the_limit(self):
        """cake-translate (and its ptxas) inherit the limit: their failed write stops the evaluation
        with DiskFull naming the candidate's folder, not a compile_error charged to the candidate."""
        with open(os.path.join(util.ROOT, "examples", "hopper_gemm.mlir")) as f:
            ir = "".join(l for l in f if not l.startswith("//"))  # ~5 KB; its PTX is ~50 KB
        seed = self.write("hg.mlir", ir)
        task = self.write_json("hg.json", {"name": "hg", "seeds": [seed], "kernel": "hopper_gemm",
                                           "shapes": [{"M": 256, "N": 256, "K": 64}], "reference": "none.cubin",
                                           "rtol": 1e-3, "floor": {"bytes": "M", "flops": "N"}})
        script = textwrap.dedent(f"""
            import sys
            sys.path.insert(0, {util.AGENT!r})
            from cake_agent.disk import DiskFull
            from cake_agent.evaluator import Evaluator
            from cake_agent.task import load_task
            from cake_agent.tools import Toolchain
            t = load_task({task!r})
            try:
                ev = Evaluator(t, Toolchain({util.BIN!r}), {os.path.join(self.tmp, "work")!r}).prepare(
                    t.instantiate(t.start_genome()))
                print("no error:", ev.status, ev.failure)
            except DiskFull as e:
                print("DiskFull", e.path, "|", e.reason)
        """)
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              preexec_fn=file_size_limit(16_000))
        self.assertTrue(proc.stdout.startswith("DiskFull " + os.path.join(self.tmp, "work")), proc.stdout + proc.stderr)
        # The harness starts its tools with SIGXFSZ at its default (subprocess restores it), so the
        # tool is killed by SIGXFSZ where a full disk would have given it ENOSPC ("No space left").
        self.assertRegex(proc.stdout, r"\| compile: (killed by SIGXFSZ|.*File too large)")


class DevFullTest(util.TempDir):
    @unittest.skipUnless(os.path.exists("/dev/full"), "no /dev/full")
    def test_report_to_a_full_device(self):
        db_path = os.path.join(self.tmp, "r.db")
        db = util.open_db(self, db_path)
        db.conn.execute("INSERT INTO runs (task, backend, policy, status) VALUES ('t', 'model-only', 'test', 'done')")
        rc, out, err = util.run_cli("report", "--db", db_path, "-o", "/dev/full")
        self.assertEqual(rc, 6, err)
        self.assertEqual(err.strip(), "cake: error: disk full: cannot write /dev/full: No space left on device; "
                                      "committed records are intact")


if __name__ == "__main__":
    unittest.main()
