"""The command line's validation up front (issue 15 item 6): flag values, the reference cubin before
anything is compiled, and read-only databases (commands that only read work in a read-only folder)."""
import gc
import io
import json
import os
import sqlite3
import sys
import time
import traceback
import unittest
from contextlib import redirect_stderr
from unittest import mock

from tests import util
from cake_agent import batch, cli, feedback, idioms, learn, report, summary  # noqa: F401 (loaded before a fork)
from cake_agent.db import Database, Unreadable

TASK = os.path.join(util.TASKS, "vector_add.json")
NOBODY = 65534


def argparse_exit(argv):
    """(exit code, stderr) of a command line argparse refuses."""
    err = io.StringIO()
    with redirect_stderr(err), mock.patch("sys.stdout", io.StringIO()):
        try:
            rc = cli.main([str(a) for a in argv])
        except SystemExit as e:
            rc = e.code
    return rc, err.getvalue()


class FlagTest(util.TempDir):
    def test_nonpositive_budget_and_job_flags_are_refused(self):
        db = os.path.join(self.tmp, "never.db")
        for flag in ("--candidates", "--gpu-evals", "--wall-s", "--generation", "--screen", "--jobs", "--iters"):
            for value in ("0", "-3", "x") + (("nan", "-0.5") if flag == "--wall-s" else ()):
                with self.subTest(flag=flag, value=value):
                    rc, err = argparse_exit(["evolve", TASK, "--db", db, flag, value])
                    self.assertEqual(rc, 2)
                    self.assertIn(f"argument {flag}: expected", err)
                    self.assertIn(f"above 0, got '{value}'", err)
        self.assertFalse(os.path.exists(db))

    def test_other_commands(self):
        for argv in (["throughput", "--n", "0"], ["throughput", "--jobs", "-1"], ["throughput", "--repeat", "0"],
                     ["idioms", "--min-support", "0"], ["idioms", "--top", "0"], ["idioms", "--min-len", "-2"],
                     ["learn", "rules", "--min-members", "0"], ["report", "--run", "0"],
                     ["batch-export", "--out", "x", "--iters", "0"], ["batch-export", "--out", "x", "--run", "-1"]):
            with self.subTest(argv=argv):
                rc, err = argparse_exit(argv)
                self.assertEqual(rc, 2)
                self.assertIn("above 0", err)

    def test_good_values_pass(self):
        a = cli.parser().parse_args(["evolve", TASK, "--wall-s", "0.5", "--candidates", "3", "--generation", "1",
                                     "--screen", "1", "--gpu-evals", "2", "--jobs", "1"])
        self.assertEqual((a.wall_s, a.candidates, a.generation, a.screen, a.gpu_evals, a.jobs), (0.5, 3, 1, 1, 2, 1))


class ReferenceFirstTest(util.TempDir):
    """A missing reference cubin once crashed batch export after the whole generation compiled."""

    def test_missing_reference_is_refused_before_compiling(self):
        # Stand-ins for every tool: nothing may run them (no candidate is compiled).
        touch = "import sys\nopen(%r, 'a').write(' '.join(sys.argv) + '\\n')\n" % os.path.join(self.tmp, "ran")
        fake = self.fake_bin({"cake-opt": touch, "cake-translate": touch, "cake-run": touch}, real=())
        os.makedirs(os.path.join(self.tmp, "refs"))
        for backend in ("batch", "local"):
            with self.subTest(backend=backend):
                db = os.path.join(self.tmp, f"{backend}.db")
                rc, out, err = util.run_cli("evolve", TASK, "--db", db, "--bin", fake, "--backend", backend,
                                            "--refs", os.path.join(self.tmp, "refs"), "--quiet",
                                            "--no-builtin-tactics")
                self.assertEqual(rc, 2, err)
                self.assertIn("reference cubin 'vector_add_ref.cubin' not found", err)
                self.assertIn(f"the {backend} backend checks every candidate against it", err)
                self.assertNotIn("Traceback", err)
                self.assertEqual(util.open_db(self, db).q("SELECT COUNT(*) FROM runs")[0][0], 0)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "ran")), "a tool ran")

    @util.needs_tools
    def test_a_failed_export_after_the_generation_is_exit_2_not_a_traceback(self):
        fake = self.fake_bin({"cake-run": util.FAKE_CAKE_RUN})
        self.write("refs/vector_add_ref.cubin", "reference")
        db = os.path.join(self.tmp, "b.db")
        with mock.patch("cake_agent.batch.export", side_effect=batch.BatchError("cannot copy cake-run")):
            rc, out, err = util.run_cli("evolve", TASK, "--db", db, "--bin", fake, "--backend", "batch",
                                        "--refs", os.path.join(self.tmp, "refs"), "--candidates", "2",
                                        "--generation", "2", "--quiet", "--no-builtin-tactics")
        self.assertEqual(rc, 2, err)
        self.assertIn("cannot copy cake-run", err)
        self.assertIn(f"cake batch-export --db {db} --run 1", err)
        run = util.open_db(self, db).run(1)
        self.assertEqual(run["status"], "interrupted")
        self.assertIn("batch export failed", run["note"])


def make_db(path):
    """A database with one run, two candidates (one failed), a measurement and stored tactic figures."""
    db = Database(path)
    with db.tx() as c:
        c.execute("INSERT INTO runs (task, task_path, task_class, backend, policy, status, started) VALUES "
                  "('vector_add', ?, 'elementwise', 'local', 'search', 'done', ?)", (TASK, time.time()))
        for i, (status, fit, fclass) in enumerate((("measured", 0.5, None), ("failed", None, "wrong_result"))):
            c.execute("INSERT INTO candidates (run_id, generation, ir_hash, ir, signature, policy, tactics, status,"
                      " failure_class, fitness, fitness_kind, steps, created) VALUES (1, 0, ?, ?, ?, 'search', '[]',"
                      " ?, ?, ?, ?, '[]', ?)", (f"h{i}", f"// ir {i}\n", f"s0:BLOCK={64 << i}", status, fclass, fit,
                                                "measured_ms" if fit else None, time.time() + i))
        c.execute("INSERT INTO failures (run_id, candidate_id, step, class, detail, created) VALUES "
                  "(1, 2, 'run', 'wrong_result', 'N=4097 seed 3: rel_err 1', ?)", (time.time(),))
    learn.refresh_tactic_stats(db)
    db.close()


class ReadOnlyDatabaseTest(util.TempDir):
    """`cake db` and `cake report` (and idioms, learn) open the database read-only: nothing written,
    and a database in a read-only folder can be read (SQLite's WAL otherwise needs to write its -shm)."""

    def setUp(self):
        super().setUp()
        self.dir = os.path.join(self.tmp, "ro")
        os.makedirs(self.dir)
        self.db = os.path.join(self.dir, "runs.db")
        make_db(self.db)
        self.out = os.path.join(self.tmp, "out")  # where the report goes: writable by anyone
        os.makedirs(self.out)
        os.chmod(self.out, 0o777)
        os.chmod(self.tmp, 0o755)

    # idioms reads the candidates' IR through cake-opt (irview.py): only where it is built.
    COMMANDS = [["db", "runs"], ["db", "best"], ["db", "failures"], ["db", "show", "1"], ["db", "lineage", "2"],
                ["db", "tactics"]] + ([["idioms", "--min-support", "1", "--bin", util.BIN]] if util.have_tools() else [])

    def argvs(self):
        return [a + ["--db", self.db] for a in self.COMMANDS] + [
            ["report", "--db", self.db, "-o", os.path.join(self.out, "r.html")]]

    def check_outputs(self, results):
        for argv, (rc, out, err) in zip(self.argvs(), results):
            self.assertEqual(rc, 0, f"{argv}: {err}")
        self.assertIn("run 1: vector_add backend local policy search done, 2 candidates", results[0][1])
        self.assertIn("vector_add: candidate 1 (run 1) 0.5000 ms", results[1][1])
        self.assertIn("wrote", results[-1][1])
        self.assertTrue(os.path.getsize(os.path.join(self.out, "r.html")) > 0)

    def test_readonly_connection_writes_nothing(self):
        """The URI path itself (any user): no -wal/-shm files appear, the file is unchanged, and a
        write through the connection is refused."""
        before = (sorted(os.listdir(self.dir)), os.path.getsize(self.db), os.stat(self.db).st_mtime_ns)
        db = Database(self.db, readonly=True)
        self.assertEqual(len(db.candidates(1)), 2)
        with self.assertRaises(sqlite3.OperationalError):
            db.conn.execute("DELETE FROM candidates")
        db.close()
        self.assertEqual(sorted(os.listdir(self.dir)), ["runs.db"])  # nothing left behind
        # Every read-only command, but `db tactics`: that one rebuilds the figures where it may write.
        argvs = [a for a in self.argvs() if a[:2] != ["db", "tactics"]]
        results = [util.run_cli(*a) for a in argvs]
        for argv, (rc, out, err) in zip(argvs, results):
            self.assertEqual(rc, 0, f"{argv}: {err}")
        gc.collect()  # in-process, a command's connection is closed when collected (a process's at exit)
        after = (sorted(os.listdir(self.dir)), os.path.getsize(self.db), os.stat(self.db).st_mtime_ns)
        self.assertEqual(before, after)
        self.check_outputs([util.run_cli(*a) for a in self.argvs()])

    def test_read_only_folder(self):
        """A cleanly closed WAL database in a folder nobody may write: read through immutable=1."""
        results = self.in_read_only_folder(self.argvs())
        self.check_outputs(results)
        self.assertIn("these are as stored after its last generation", results[self.COMMANDS.index(["db", "tactics"])][1])
        self.assertEqual(sorted(os.listdir(self.dir)), ["runs.db"])

    def test_read_only_folder_after_a_killed_writer(self):
        """A writer killed with records still in its -wal: read through mode=ro, those records included."""
        code = ("import os, sqlite3, sys\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                "c.execute('PRAGMA wal_autocheckpoint=0')\n"
                "c.execute(\"INSERT INTO runs (task, backend, policy, status) VALUES ('softmax', 'batch', 'llm', "
                "'running')\")\nos._exit(0)\n")
        self.assertEqual(util_run([sys.executable, "-c", code, self.db]), 0)
        self.assertGreater(os.path.getsize(self.db + "-wal"), 0)
        (rc, out, err), = self.in_read_only_folder([["db", "runs", "--db", self.db]])
        self.assertEqual(rc, 0, err)
        self.assertIn("run 2: softmax backend batch policy llm running, 0 candidates", out)

    def test_wal_records_without_shm_is_a_clear_error(self):
        code = ("import os, sqlite3, sys\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                "c.execute('PRAGMA wal_autocheckpoint=0')\n"
                "c.execute(\"INSERT INTO runs (task, backend, policy, status) VALUES ('t', 'b', 'p', 's')\")\n"
                "os.remove(sys.argv[1] + '-shm')\nos._exit(0)\n")
        self.assertEqual(util_run([sys.executable, "-c", code, self.db]), 0)
        (rc, out, err), = self.in_read_only_folder([["db", "runs", "--db", self.db]])
        self.assertEqual(rc, 2, err)
        self.assertIn(f"cannot read the database {self.db}", err)
        self.assertIn("open it once where the folder is writable", err)
        self.assertNotIn("Traceback", err)

    def in_read_only_folder(self, argvs):
        """Runs each ``cake ARGV`` where self.dir cannot be written; returns [(rc, stdout, stderr)].
        Permission bits do not stop root: as root the commands run in a forked child that drops to
        uid/gid 65534 (nobody), which they do stop; otherwise chmod alone does."""
        os.chmod(self.dir, 0o555)
        self.addCleanup(os.chmod, self.dir, 0o755)
        if os.geteuid() != 0:
            if os.access(self.dir, os.W_OK):
                self.skipTest("chmod 0555 does not make a folder read-only for this user")
            return [util.run_cli(*a) for a in argvs]
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns into unittest
            try:
                os.close(r)
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
                if not os.access(self.db, os.R_OK) or os.access(self.dir, os.W_OK):
                    res = {"skip": f"uid {NOBODY} cannot read {self.db}, or can write its folder"}
                else:
                    res = []
                    for a in argvs:
                        try:
                            res.append(util.run_cli(*a))
                        except BaseException:
                            res.append((99, "", traceback.format_exc()))
                os.write(w, json.dumps(res).encode())
            except BaseException:
                os.write(w, json.dumps({"skip": "cannot drop privileges: " + traceback.format_exc()}).encode())
            finally:
                os._exit(0)
        os.close(w)
        with os.fdopen(r) as f:
            data = f.read()
        os.waitpid(pid, 0)
        res = json.loads(data)
        if isinstance(res, dict):
            self.skipTest(res["skip"])
        return [tuple(x) for x in res]


def util_run(argv):
    import subprocess
    return subprocess.run(argv, capture_output=True).returncode


class ReadOnlyErrorsTest(util.TempDir):
    def test_not_a_database(self):
        path = self.write("notes.db", "not sqlite")
        rc, out, err = util.run_cli("db", "runs", "--db", path)
        self.assertEqual(rc, 2)
        self.assertIn("cannot read the database", err)
        with self.assertRaises(Unreadable):
            Database(path, readonly=True)

    def test_unknown_run_and_bad_lengths(self):
        db = os.path.join(self.tmp, "r.db")
        make_db(db)
        rc, out, err = util.run_cli("report", "--db", db, "--run", "7", "-o", os.path.join(self.tmp, "r.html"))
        self.assertEqual(rc, 2)
        self.assertIn("no run 7 in", err)
        rc, out, err = util.run_cli("idioms", "--db", db, "--min-len", "4", "--max-len", "2")
        self.assertEqual(rc, 2)
        self.assertIn("--max-len 2 is below --min-len 4", err)


class OutputSafetyTest(util.TempDir):
    """What a command writes never replaces one of its inputs, and a refused command creates nothing."""

    def test_report_refuses_its_database_and_bad_paths(self):
        db = os.path.join(self.tmp, "r.db")
        make_db(db)
        with open(db, "rb") as f:
            before = f.read()
        for out, why in ((db, "is also the input"), (self.tmp, "is a folder"),
                         (os.path.join(self.tmp, "no", "r.html"), "no folder")):
            rc, _, err = util.run_cli("report", "--db", db, "-o", out)
            self.assertEqual(rc, 2, err)
            self.assertIn(why, err)
            self.assertNotIn("Traceback", err)
        with open(db, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertEqual(util.open_db(self, db).q("SELECT COUNT(*) FROM runs")[0][0], 1)
        out = os.path.join(self.tmp, "r.html")
        rc, _, err = util.run_cli("report", "--db", db, "-o", out)
        self.assertEqual(rc, 0, err)
        self.assertEqual(os.stat(out).st_mode & 0o777, 0o666 & ~_umask())
        self.assertEqual([f for f in os.listdir(self.tmp) if f.endswith(".partial")], [])

    def test_a_refused_evolve_creates_no_database(self):
        db = os.path.join(self.tmp, "sub", "runs.db")
        rc, _, err = util.run_cli("evolve", TASK, "--db", db, "--bin", os.path.join(self.tmp, "nobin"))
        self.assertEqual(rc, 4, err)
        rc, _, err = util.run_cli("evolve", "--resume", "3", "--db", db)
        self.assertEqual(rc, 2, err)
        self.assertIn("no database at", err)
        self.assertFalse(os.path.exists(os.path.dirname(db)))

    def test_a_file_that_is_not_a_database_is_an_argument_error(self):
        path = self.write("notes.db", "not sqlite, and long enough to have a header " * 4)
        with self.assertRaisesRegex(Unreadable, "not a database"):
            Database(path)
        with self.assertRaisesRegex(Unreadable, "a folder"):
            Database(self.tmp)
        with open(path) as f:
            self.assertIn("not sqlite", f.read())


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


if __name__ == "__main__":
    unittest.main()
