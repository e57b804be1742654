"""The harness database: SQLite in WAL mode, one transaction per finished record.

A candidate and everything about it (diagnostics, cost report, compile facts, measurements, failure)
are written in a single transaction after its evaluation ends, with ``synchronous=FULL``; so a kill -9
at any moment leaves either the whole record or none of it, and committed records survive. The same
holds when the disk fills: the write fails with SQLITE_FULL or SQLITE_IOERR, SQLite rolls the
transaction back, and the error propagates (the command line reports it, disk.py, with exit 6).

Commands that only read (``cake db``, ``report``, ``idioms``, ``learn``, ``calibrate --from-db``) open
it with ``readonly=True``: no schema update, ``PRAGMA query_only``, and in a folder they cannot write
SQLite's read-only URI modes (see ``_open_readonly``), so a database in a read-only folder can be read.
"""
import json
import os
import platform
import sqlite3
import time
import urllib.parse

from . import disk

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY, task TEXT NOT NULL, task_path TEXT, task_digest TEXT, task_class TEXT,
  backend TEXT NOT NULL, policy TEXT NOT NULL, status TEXT NOT NULL, started REAL, finished REAL,
  machine TEXT, config TEXT, note TEXT);
CREATE TABLE IF NOT EXISTS candidates (
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), generation INTEGER NOT NULL,
  ir_hash TEXT NOT NULL, ir TEXT NOT NULL, genome TEXT, signature TEXT, parent_id INTEGER REFERENCES candidates(id),
  policy TEXT, tactics TEXT, status TEXT NOT NULL, failure_class TEXT, fitness REAL, fitness_kind TEXT,
  steps TEXT, dir TEXT, created REAL, UNIQUE (run_id, ir_hash));
CREATE TABLE IF NOT EXISTS diagnostics (
  candidate_id INTEGER NOT NULL REFERENCES candidates(id), step TEXT, rule TEXT, severity TEXT,
  line INTEGER, col INTEGER, op TEXT, message TEXT, hint TEXT);
CREATE TABLE IF NOT EXISTS cost_reports (
  candidate_id INTEGER PRIMARY KEY REFERENCES candidates(id), status TEXT, predicted_ms REAL, report TEXT);
CREATE TABLE IF NOT EXISTS compile_facts (
  candidate_id INTEGER PRIMARY KEY REFERENCES candidates(id), registers INTEGER, spill_stores INTEGER,
  spill_loads INTEGER, smem_bytes INTEGER, barriers INTEGER, stack_bytes INTEGER, seconds REAL,
  cubin TEXT, manifest TEXT, entry TEXT);
CREATE TABLE IF NOT EXISTS measurements (
  id INTEGER PRIMARY KEY, candidate_id INTEGER NOT NULL REFERENCES candidates(id), backend TEXT,
  machine TEXT, device TEXT, shape TEXT, seed INTEGER, status TEXT, time_ms REAL, floor_ms REAL,
  rel_err REAL, detail TEXT, record TEXT, created REAL);
CREATE TABLE IF NOT EXISTS failures (
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
  candidate_id INTEGER REFERENCES candidates(id), step TEXT, class TEXT NOT NULL, detail TEXT, created REAL);
CREATE TABLE IF NOT EXISTS batches (
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), generation INTEGER, dir TEXT,
  plan TEXT, status TEXT, created REAL);
CREATE INDEX IF NOT EXISTS candidates_run ON candidates(run_id);
CREATE INDEX IF NOT EXISTS measurements_cand ON measurements(candidate_id);
"""


class Unreadable(RuntimeError):
    """A database that cannot be opened for reading (the message names the path and why)."""


def _open_readonly(path):
    """A connection that reads ``path`` and writes nothing, also where its folder is read-only.

    A WAL database needs its ``-shm`` file (and SQLite creates ``-wal``/``-shm`` when they are absent,
    even for ``mode=ro``). So: where the folder and the file are writable, an ordinary connection with
    ``query_only`` (it leaves no ``-wal``/``-shm`` behind); else ``mode=ro``, which works when the
    ``-wal``/``-shm`` files exist (a writer has it open, or was killed); else, when there is no ``-wal``
    holding records (a cleanly closed database), ``immutable=1``, which reads the file alone.
    """
    path = os.path.abspath(path)
    uri = "file:" + urllib.parse.quote(path)
    modes = ["mode=ro"]
    if os.access(os.path.dirname(path), os.W_OK) and os.access(path, os.W_OK):
        modes.insert(0, "mode=rw")
    wal = path + "-wal"
    wal_records = os.path.exists(wal) and os.path.getsize(wal) > 0
    if not wal_records:
        modes.append("mode=ro&immutable=1")
    error = None
    for mode in modes:
        conn = None
        try:
            conn = sqlite3.connect(f"{uri}?{mode}", uri=True, timeout=60, isolation_level=None)
            conn.execute("PRAGMA query_only=ON")
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.Error as e:
            error = error or e  # the first mode's error says most
            if conn is not None:
                conn.close()
    why = f"{error}"
    if wal_records and not os.access(os.path.dirname(path), os.W_OK):
        why += (f"; its -wal file holds records not yet in the database file and SQLite cannot create "
                f"{path}-shm in a read-only folder: open it once where the folder is writable")
    raise Unreadable(f"cannot read the database {path}: {why}")


class Database:
    """A connection to the harness database (created on first use); ``readonly=True`` for commands
    that only read (nothing is created or written, and a read-only folder is fine)."""

    def __init__(self, path, readonly=False):
        self.path = path
        self.readonly = readonly
        if readonly:
            self.conn = _open_readonly(path)
            self.conn.row_factory = sqlite3.Row
            return
        if os.path.isdir(path):
            raise Unreadable(f"--db {path}: a folder, not a database file")
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            os.makedirs(folder, exist_ok=True)  # --db runs/new.db: make runs/ as a user expects
        self.conn = sqlite3.connect(path, timeout=60, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        try:
            mode = self.conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        except sqlite3.DatabaseError as e:
            if disk.sqlite_code(e) != disk.SQLITE_NOTADB:
                raise
            self.conn.close()
            raise Unreadable(f"--db {path}: not a database (SQLite: {e})") from None
        if mode.lower() != "wal":
            raise sqlite3.OperationalError(f"{path}: cannot switch to WAL mode (got {mode})")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        self.conn.executescript(SCHEMA)
        cols = {r[1] for r in self.conn.execute("PRAGMA table_info(candidates)")}
        if "note" not in cols:  # databases written before proposals carried notes (stagnation hints)
            self.conn.execute("ALTER TABLE candidates ADD COLUMN note TEXT")

    def close(self):
        self.conn.close()

    def tx(self):
        """A write transaction (BEGIN IMMEDIATE ... COMMIT, rolled back on error)."""
        return _Tx(self.conn)

    def q(self, sql, args=()):
        return self.conn.execute(sql, args).fetchall()

    # -- runs --------------------------------------------------------------------------------
    def new_run(self, task, backend, policy, config):
        with self.tx() as c:
            cur = c.execute("INSERT INTO runs (task, task_path, task_digest, task_class, backend, policy, status,"
                            " started, machine, config) VALUES (?,?,?,?,?,?,?,?,?,?)",
                            (task.name, task.path, task.digest(), task.task_class, backend, policy, "running",
                             time.time(), platform.node(), json.dumps(config)))
            return cur.lastrowid

    def run(self, run_id):
        rows = self.q("SELECT * FROM runs WHERE id=?", (run_id,))
        return rows[0] if rows else None

    def last_run(self, task_name=None):
        rows = self.q("SELECT * FROM runs" + (" WHERE task=?" if task_name else "") + " ORDER BY id DESC LIMIT 1",
                      (task_name,) if task_name else ())
        return rows[0] if rows else None

    def set_run_status(self, run_id, status, note=None):
        with self.tx() as c:
            c.execute("UPDATE runs SET status=?, note=COALESCE(?, note), finished=? WHERE id=?",
                      (status, note, time.time() if status != "running" else None, run_id))

    def record_failure(self, run_id, cls, detail, step=None, candidate_id=None):
        """A failure not tied to one evaluation (e.g. a malformed LLM answer)."""
        with self.tx() as c:
            c.execute("INSERT INTO failures (run_id, candidate_id, step, class, detail, created) VALUES (?,?,?,?,?,?)",
                      (run_id, candidate_id, step, cls, (detail or "")[:2000], time.time()))

    # -- candidates ----------------------------------------------------------------------------
    def record(self, run_id, generation, ev, proposal, backend):
        """Writes a finished evaluation and all its facts in one transaction; returns the candidate id."""
        with self.tx() as c:
            cur = c.execute(
                "INSERT INTO candidates (run_id, generation, ir_hash, ir, genome, signature, parent_id, policy,"
                " tactics, status, failure_class, fitness, fitness_kind, steps, dir, created)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (run_id, generation, ev.ir_hash, ev.ir, json.dumps(proposal.genome) if proposal.genome else None,
                 proposal.signature, proposal.parent_id, proposal.policy, json.dumps(list(proposal.tactics)),
                 ev.status, ev.failure["class"] if ev.failure else None, ev.fitness, ev.fitness_kind,
                 json.dumps(ev.steps), ev.dir, time.time()))
            cid = cur.lastrowid
            if getattr(proposal, "note", None):
                c.execute("UPDATE candidates SET note=? WHERE id=?", (proposal.note, cid))
            for d in ev.diagnostics:
                c.execute("INSERT INTO diagnostics VALUES (?,?,?,?,?,?,?,?,?)",
                          (cid, "verify", d["rule"], d["severity"], d["line"], d["col"], d["op"], d["message"], d["hint"]))
            c.execute("INSERT INTO cost_reports VALUES (?,?,?,?)",
                      (cid, ev.cost["status"], ev.cost.get("predicted_ms"), json.dumps(ev.cost.get("report"))))
            if ev.compile:
                f = ev.compile
                c.execute("INSERT INTO compile_facts VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                          (cid, f["registers"], f["spill_stores"], f["spill_loads"], f["smem_bytes"], f["barriers"],
                           f["stack_bytes"], f["seconds"], f["cubin"], f["manifest"], f["entry"]))
            self._insert_measurements(c, cid, ev.measurements, backend)
            if ev.failure:
                c.execute("INSERT INTO failures (run_id, candidate_id, step, class, detail, created) VALUES (?,?,?,?,?,?)",
                          (run_id, cid, ev.failure["step"], ev.failure["class"], ev.failure["detail"], time.time()))
            return cid

    @staticmethod
    def _insert_measurements(c, cid, measurements, backend):
        for m in measurements:
            rec = m.get("record") or {}
            c.execute("INSERT INTO measurements (candidate_id, backend, machine, device, shape, seed, status, time_ms,"
                      " floor_ms, rel_err, detail, record, created) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                      (cid, backend, m.get("machine") or platform.node(), rec.get("device"), json.dumps(m["shape"]),
                       m["seed"], m["status"], m["time_ms"], m["floor_ms"], m["rel_err"], m.get("detail"),
                       json.dumps(rec), time.time()))

    def complete_measurement(self, run_id, cid, measurements, backend, status, fitness, failure):
        """Adds a pending candidate's measurements (batch ingestion) and its outcome, in one transaction."""
        with self.tx() as c:
            self._insert_measurements(c, cid, measurements, backend)
            c.execute("UPDATE candidates SET status=?, fitness=?, fitness_kind=?, failure_class=? WHERE id=?",
                      (status, fitness, "measured_ms" if fitness is not None else None,
                       failure["class"] if failure else None, cid))
            if failure:
                c.execute("INSERT INTO failures (run_id, candidate_id, step, class, detail, created) VALUES (?,?,?,?,?,?)",
                          (run_id, cid, "run", failure["class"], failure["detail"], time.time()))

    def candidates(self, run_id):
        return self.q("SELECT * FROM candidates WHERE run_id=? ORDER BY id", (run_id,))

    def genomes(self, run_id):
        """The genomes ([seed, params]) a run's candidates were built from (tactic children share
        their parent's)."""
        return [json.loads(r["genome"]) for r in self.q(
            "SELECT DISTINCT genome FROM candidates WHERE run_id=? AND genome IS NOT NULL", (run_id,))]

    def candidate(self, cid):
        rows = self.q("SELECT * FROM candidates WHERE id=?", (cid,))
        return rows[0] if rows else None

    def compile_facts(self, cid):
        rows = self.q("SELECT * FROM compile_facts WHERE candidate_id=?", (cid,))
        return rows[0] if rows else None

    def measurements(self, cid):
        return self.q("SELECT * FROM measurements WHERE candidate_id=? ORDER BY id", (cid,))

    def diagnostics(self, cid):
        return self.q("SELECT * FROM diagnostics WHERE candidate_id=?", (cid,))

    # -- common questions (cake db) --------------------------------------------------------------
    def best_per_task(self):
        """The fastest measured candidate of each task, over all runs."""
        return self.q("SELECT c.*, r.task FROM candidates c JOIN runs r ON r.id=c.run_id"
                      " WHERE c.fitness_kind='measured_ms' AND c.id = (SELECT c2.id FROM candidates c2"
                      " JOIN runs r2 ON r2.id=c2.run_id WHERE r2.task=r.task AND c2.fitness_kind='measured_ms'"
                      " ORDER BY c2.fitness LIMIT 1) ORDER BY r.task")

    def failures_by_class(self, run_id=None):
        where = " WHERE f.run_id=?" if run_id else ""
        return self.q("SELECT r.task, f.class, COUNT(*) AS n FROM failures f JOIN runs r ON r.id=f.run_id" + where +
                      " GROUP BY r.task, f.class ORDER BY r.task, n DESC", (run_id,) if run_id else ())

    def lineage(self, cid):
        """The candidate and its ancestors, newest first."""
        chain, seen = [], set()
        while cid is not None and cid not in seen:
            seen.add(cid)
            row = self.candidate(cid)
            if row is None:
                break
            chain.append(row)
            cid = row["parent_id"]
        return chain


class _Tx:
    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error:
                self._rollback()  # e.g. the disk filled during the commit: nothing of it is kept
                raise
        else:
            self._rollback()
        return False

    def _rollback(self):
        """Rolls back what is open; SQLite has already rolled back after a failed write (SQLITE_FULL,
        SQLITE_IOERR), and an error here must not hide the one that got us here."""
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
